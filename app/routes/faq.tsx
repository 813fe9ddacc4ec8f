import { Link } from "react-router";
import { FAQ_TOPICS } from "../../content/faq";
import { FaqContents, FaqList } from "../components/FaqList";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { pageMeta } from "../lib/meta";
import { faqPage, type StructuredData } from "../lib/structured-data";
import type { Route } from "./+types/faq";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Frequently Asked Questions",
    description:
      "Answers about our coverage areas, news tips, events and press releases, advertising, newsletters, corrections and privacy.",
  });

export const handle = {
  structuredData: (() => [
    faqPage(FAQ_TOPICS.flatMap((topic) => topic.items)),
  ]) satisfies StructuredData<unknown>,
};

export default function Faq() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading lead="Answers to the questions readers ask us most, grouped by topic.">
        Frequently Asked Questions
      </PageHeading>
      <FaqContents topics={FAQ_TOPICS} />
      <FaqList topics={FAQ_TOPICS} />
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
    </div>
  );
}
