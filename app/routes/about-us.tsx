import { Link } from "react-router";
import { site } from "../../content/site";
import { ContactDetails } from "../components/ContactDetails";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta(
    "About Us",
    `Who we are: an independent San Diego newsroom founded in ${site.foundingYear}.`,
  );

export default function AboutUs() {
  return (
    <>
      <PageHeading lead={`${site.tagline}, founded in ${site.foundingYear}.`}>About Us</PageHeading>
      <div className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div>
          <Section title="Our Story">
            <p>
              {site.name} has covered San Diego County since {site.foundingYear}.
            </p>
          </Section>
          <Section title="Our Mission">
            <p>What we promise our readers.</p>
          </Section>
          <Section title="Our Team">
            <p>The editors and reporters behind our coverage.</p>
          </Section>
          <Section title="Our Values">
            <p>The standards we hold ourselves to.</p>
          </Section>
        </div>
        <aside aria-label="Contact and careers">
          <Section title="Visit Our Office">
            <ContactDetails />
          </Section>
          <Section title="Careers">
            <p>
              Want to report on San Diego?{" "}
              <Link to="/contact-us" className="text-brand underline">
                Get in touch
              </Link>
              .
            </p>
          </Section>
        </aside>
      </div>
    </>
  );
}
