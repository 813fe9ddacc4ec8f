import { CalendarIcon } from "../components/Icons";
import { ClickToLoadFrame, LINK } from "../components/Embed";
import { EventCategoryList, FeaturedEventList, SubmitEventLink } from "../components/EventList";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { useEmbeds } from "../lib/embeds";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/events";

export function loader({ context }: Route.LoaderArgs) {
  const { featured, categories, submitBlurb } = context.content.events;
  return { featured, categories, submitBlurb };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Events",
    description:
      "Public holidays, featured events and things to do across San Diego County, and how to submit your own event.",
  });

/** The federal government's own list, for when no calendar provider is configured. */
const FEDERAL_HOLIDAYS_URL =
  "https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/";

function HolidayCalendar() {
  const { holidayCalendarUrl } = useEmbeds();
  return (
    <ClickToLoadFrame
      src={holidayCalendarUrl}
      title="Holiday calendar"
      height={600}
      icon={<CalendarIcon />}
      description="Public holidays for the year ahead, in a calendar you can page through."
      fallback={
        <>
          The U.S. Office of Personnel Management lists the dates of every{" "}
          <a href={FEDERAL_HOLIDAYS_URL} rel="noopener noreferrer" className={LINK}>
            federal holiday
          </a>{" "}
          for this year and the next.
        </>
      }
    />
  );
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const { featured, categories, submitBlurb } = loaderData;
  return (
    <>
      <PageHeading lead="Holidays, festivals and community events across San Diego County.">
        Events
      </PageHeading>
      <Section title="Holiday Calendar">
        <HolidayCalendar />
      </Section>
      <Section title="Featured Events">
        <FeaturedEventList events={featured} />
      </Section>
      <Section title="Event Categories">
        <EventCategoryList categories={categories} />
      </Section>
      <Section
        title="Hosting an Event?"
        className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <p className="max-w-3xl">{submitBlurb}</p>
        <div className="mt-4">
          <SubmitEventLink />
        </div>
      </Section>
      <PageAds kind="events" at="end" className="mt-10" />
    </>
  );
}
