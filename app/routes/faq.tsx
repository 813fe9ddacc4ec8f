import { Link } from "react-router";
import { FaqContents, FaqList } from "../components/FaqList";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { pageHead } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { faqPage } from "../../shared/structured-data";
import type { Route } from "./+types/faq";

// The questions come with the page's data, so they are not also shipped as JavaScript.
export function loader({ request, context }: Route.LoaderArgs) {
  const { topics } = context.content.faq;
  return {
    topics,
    head: pageHead(
      request,
      context,
      {
        title: "Frequently Asked Questions",
        description:
          "Answers about our coverage areas, news tips, events and press releases, advertising, newsletters, corrections and privacy.",
      },
      [faqPage(topics.flatMap((topic) => topic.items))],
    ),
  };
}

export const meta = headMeta;
export const handle = headHandle;

export default function Faq({ loaderData }: Route.ComponentProps) {
  const { topics } = loaderData;
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading lead="Answers to the questions readers ask us most, grouped by topic.">
        Frequently Asked Questions
      </PageHeading>
      <FaqContents topics={topics} />
      <FaqList topics={topics} />
      <Section
        title="Still Have Questions?"
        className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <p>Our newsroom reads every message.</p>
        <Link
          to="/contact-us"
          className="mt-4 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
        >
          Contact Us
        </Link>
      </Section>
      <PageAds kind="page" at="end" className="mt-10" />
    </div>
  );
}
