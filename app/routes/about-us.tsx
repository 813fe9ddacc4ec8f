import { Link } from "react-router";
import { ABOUT } from "../../content/about";
import { site } from "../../content/site";
import { ContactDetails } from "../components/ContactDetails";
import { PageHeading } from "../components/PageHeading";
import { ProfileCard } from "../components/ProfileCard";
import { Section } from "../components/Section";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/about-us";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "About Us",
    description: `Who we are: an independent newsroom covering San Diego County since ${site.foundingYear}, our mission, values and editorial team.`,
  });

const CARD = "rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200";

export default function AboutUs() {
  return (
    <>
      <PageHeading lead={ABOUT.lead}>About Us</PageHeading>
      <p className="-mt-4 mb-8 text-sm font-semibold tracking-wide text-slate-600 uppercase">
        Founded in {site.foundingYear} · San Diego County
      </p>
      <div className="grid gap-x-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <Section title="Our Story">
            <div className="space-y-4 leading-relaxed">
              {ABOUT.story.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          </Section>
          <Section title="Our Mission">
            <ul className="space-y-2">
              {ABOUT.mission.map((item) => (
                <li key={item} className="flex gap-3">
                  <span aria-hidden="true" className="font-bold text-brand">
                    ✓
                  </span>
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Our Team">
            <div className="space-y-4 leading-relaxed">
              {ABOUT.team.map((p) => (
                <p key={p}>{p}</p>
              ))}
            </div>
          </Section>
          <Section title="Our Values">
            <ul className="grid gap-4 sm:grid-cols-2">
              {ABOUT.values.map((value) => (
                <li key={value.title} className={CARD}>
                  <h3 className="font-bold">{value.title}</h3>
                  <p className="mt-1 text-sm text-slate-700">{value.text}</p>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Editorial Team">
            <ul className="grid gap-4 sm:grid-cols-2">
              {ABOUT.editorialTeam.map((member) => (
                <li key={member.name}>
                  <ProfileCard member={member} />
                </li>
              ))}
            </ul>
          </Section>
        </div>
        <div>
          <Section title="Visit Our Office" className={CARD}>
            <div className="[&_a]:text-brand [&_a]:underline [&_a]:underline-offset-2">
              <ContactDetails />
            </div>
          </Section>
          <Section title="Careers" className={CARD}>
            <p className="text-sm text-slate-700">{ABOUT.careers}</p>
            <Link
              to="/contact-us"
              className="mt-4 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
            >
              Contact Us About Careers
            </Link>
          </Section>
        </div>
      </div>
    </>
  );
}
