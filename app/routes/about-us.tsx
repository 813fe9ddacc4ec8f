import { Link, useRouteLoaderData } from "react-router";
import { ContactDetails } from "../components/ContactDetails";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { ProfileCard } from "../components/ProfileCard";
import { Section } from "../components/Section";
import { pageMeta } from "../lib/meta";
import type { loader as rootLoader } from "../root";
import type { Route } from "./+types/about-us";

export function loader({ context }: Route.LoaderArgs) {
  return { about: context.content.about };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "About Us", description: args.loaderData?.about.description ?? "" });

const CARD = "rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200";

export default function AboutUs({ loaderData }: Route.ComponentProps) {
  const { about } = loaderData;
  const foundingYear = useRouteLoaderData<typeof rootLoader>("root")?.site.foundingYear;
  return (
    <>
      <PageHeading lead={about.lead}>About Us</PageHeading>
      <p className="-mt-4 mb-8 text-sm font-semibold tracking-wide text-slate-600 uppercase">
        Founded in {foundingYear} · San Diego County
      </p>
      <div className="grid gap-x-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          {/* Our Story, Our Mission and Our Team: the sections of content/about.md. */}
          {about.sections.map((section) => (
            <Section key={section.heading} title={section.heading}>
              {section.paragraphs.length > 0 ? (
                <div className="space-y-4 leading-relaxed">
                  {section.paragraphs.map((p) => (
                    <p key={p}>{p}</p>
                  ))}
                </div>
              ) : null}
              {section.list ? (
                <ul className="space-y-2">
                  {section.list.map((item) => (
                    <li key={item} className="flex gap-3">
                      <span aria-hidden="true" className="font-bold text-brand">
                        ✓
                      </span>
                      <span>{item}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </Section>
          ))}
          <Section title="Our Values">
            <ul className="grid gap-4 sm:grid-cols-2">
              {about.values.map((value) => (
                <li key={value.title} className={CARD}>
                  <h3 className="font-bold">{value.title}</h3>
                  <p className="mt-1 text-sm text-slate-700">{value.text}</p>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Editorial Team">
            <ul className="grid gap-4 sm:grid-cols-2">
              {about.editorialTeam.map((member) => (
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
            <p className="text-sm text-slate-700">{about.careers}</p>
            <Link
              to="/contact-us"
              className="mt-4 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
            >
              Contact Us About Careers
            </Link>
          </Section>
        </div>
      </div>
      <PageAds kind="page" at="end" className="mt-10" />
    </>
  );
}
