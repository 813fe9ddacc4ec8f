import { Link } from "react-router";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta("Events", "Holidays, festivals and community events across San Diego County.");

export default function Events() {
  return (
    <>
      <PageHeading lead="What is happening around San Diego County.">Events</PageHeading>
      <Section title="Holiday Calendar">
        <p>Public holidays for the year ahead.</p>
      </Section>
      <Section title="Featured Events">
        <p>Four featured events from around the county.</p>
      </Section>
      <Section title="Event Categories">
        <p>Six kinds of events to browse.</p>
      </Section>
      <Link
        to="/contact-us"
        className="inline-block rounded bg-brand px-4 py-2 font-semibold text-white"
      >
        Submit Event
      </Link>
    </>
  );
}
