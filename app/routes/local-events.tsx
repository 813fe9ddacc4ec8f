import { Link } from "react-router";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta("Local Events", "Community happenings posted by San Diego neighbours and organisers.");

export default function LocalEvents() {
  return (
    <>
      <PageHeading>Local Events</PageHeading>
      <Section title="Community Feed">
        <p>Posts from local organisers.</p>
      </Section>
      <Section title="Submit Your Event">
        <p>
          Hosting something in San Diego County?{" "}
          <Link to="/contact-us" className="text-brand underline">
            Tell us about it
          </Link>
          .
        </p>
      </Section>
      <Section title="Event Categories">
        <p>Five kinds of local events.</p>
      </Section>
      <Section title="Stay in the Loop">
        <p>Our newsletter lists the week&apos;s events every Thursday.</p>
      </Section>
    </>
  );
}
