import { Link } from "react-router";
import { PostsIcon } from "../components/Icons";
import { ClickToLoadFrame, LINK } from "../components/Embed";
import { EventCategoryList, SubmitEventLink } from "../components/EventList";
import { NewsletterBox } from "../components/NewsletterBox";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { useEmbeds } from "../lib/embeds";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/local-events";

export function loader({ context }: Route.LoaderArgs) {
  const { localCategories, submitBlurb, newsletterBlurb } = context.content.events;
  return { localCategories, submitBlurb, newsletterBlurb };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Local Events",
    description:
      "Neighborhood gatherings, markets, classes and town halls posted by San Diego organizers, and how to add yours.",
  });

const CARD = "rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200";

function CommunityFeed() {
  const { feedWallUrl } = useEmbeds();
  return (
    <ClickToLoadFrame
      src={feedWallUrl}
      title="Community events feed"
      height={800}
      icon={<PostsIcon />}
      description="Posts from San Diego organizers about what is on this week, gathered on one wall."
      fallback={
        <>
          Posts from local organizers will appear here. Meanwhile, see the featured events on our{" "}
          <Link to="/events" className={LINK}>
            Events page
          </Link>{" "}
          and the latest{" "}
          <Link to="/community" className={LINK}>
            community stories
          </Link>
          .
        </>
      }
    />
  );
}

export default function LocalEvents({ loaderData }: Route.ComponentProps) {
  const { localCategories, submitBlurb, newsletterBlurb } = loaderData;
  return (
    <>
      <PageHeading lead="Community happenings posted by San Diego neighbors and organizers.">
        Local Events
      </PageHeading>
      <div className="grid gap-x-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <Section title="Community Feed">
            <CommunityFeed />
          </Section>
          <Section title="Event Categories">
            <EventCategoryList categories={localCategories} />
          </Section>
        </div>
        <div>
          <Section title="Submit Your Event" className={CARD}>
            <p className="text-sm text-slate-700">{submitBlurb}</p>
            <div className="mt-4">
              <SubmitEventLink />
            </div>
          </Section>
          <Section title="Stay in the Loop">
            <p className="mb-4 text-sm text-slate-700">{newsletterBlurb}</p>
            <NewsletterBox />
          </Section>
        </div>
      </div>
      <PageAds kind="events" at="end" className="mt-10" />
    </>
  );
}
