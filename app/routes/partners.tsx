import { Link } from "react-router";
import { PageAds } from "../components/PageAds";
import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/partners";

export function loader({ context }: Route.LoaderArgs) {
  return context.content.partners;
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Partners",
    description:
      "The organizations we work with, and what we look for when local businesses and publications partner with our newsroom.",
  });

/** The illustrations' own size; the cards scale them to fit. */
const IMAGE_WIDTH = 600;
const IMAGE_HEIGHT = 400;

const CARD = "overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200";

export default function Partners({ loaderData }: Route.ComponentProps) {
  const { images, intro, points } = loaderData;
  return (
    <>
      <PageHeading>Our Partners</PageHeading>
      <ul className="mb-10 grid gap-6 md:grid-cols-3">
        {images.map((partner, index) => (
          <li key={partner.id} className={CARD}>
            <img
              src={partner.url}
              alt={partner.alt}
              width={IMAGE_WIDTH}
              height={IMAGE_HEIGHT}
              // The first card is in view on every screen; the others are below the fold on phones.
              loading={index === 0 ? "eager" : "lazy"}
              decoding="async"
              className="aspect-[3/2] h-auto w-full object-cover"
            />
            <h2 className="p-4 text-lg font-bold">Partner {partner.id}</h2>
          </li>
        ))}
      </ul>
      <Section title="Partner With Us">
        <p className="mb-6 max-w-3xl text-lg text-slate-700">{intro}</p>
        <ul className="grid gap-4 md:grid-cols-3">
          {points.map((point) => (
            <li
              key={point.title}
              className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
            >
              <h3 className="font-bold">{point.title}</h3>
              <p className="mt-1 text-sm text-slate-700">{point.text}</p>
            </li>
          ))}
        </ul>
        <Link
          to="/contact-us"
          className="mt-6 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
        >
          Become a Partner
        </Link>
      </Section>
      <PageAds kind="page" at="end" className="mt-10" />
    </>
  );
}
