import { ContactDetails } from "../components/ContactDetails";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta(
    "Contact Us",
    "Send a news tip, a correction, an event or an advertising question to our newsroom.",
  );

export default function ContactUs() {
  return (
    <>
      <PageHeading lead="News tips, corrections, events and advertising.">Contact Us</PageHeading>
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <Section title="Send us a message">
          <p>Write to the newsroom using the details alongside.</p>
        </Section>
        <Section title="Support">
          <ContactDetails />
        </Section>
      </div>
    </>
  );
}
