import { Link } from "react-router";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta(
    "Frequently Asked Questions",
    "Answers about our coverage, tips, events, advertising, newsletters, corrections and privacy.",
  );

export default function Faq() {
  return (
    <>
      <PageHeading>Frequently Asked Questions</PageHeading>
      <Section
        title="Still Have Questions?"
        className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <p>Our newsroom reads every message.</p>
        <Link to="/contact-us" className="mt-4 inline-block rounded bg-brand px-4 py-2 text-white">
          Contact Us
        </Link>
      </Section>
    </>
  );
}
