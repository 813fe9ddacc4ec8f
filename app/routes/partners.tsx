import { PageHeading } from "../components/PageHeading";
import { Section } from "../components/Section";
import { basicMeta } from "../lib/meta";

export const meta = () =>
  basicMeta("Partners", "The organisations we work with, and how to partner with our newsroom.");

const POINTS = [
  { title: "Community Focus", text: "Reach readers who care about their neighbourhoods." },
  { title: "Quality Standards", text: "Your name beside journalism that is checked and fair." },
  { title: "Innovation", text: "New formats for events, newsletters and sponsorships." },
];

export default function Partners() {
  return (
    <>
      <PageHeading>Our Partners</PageHeading>
      <Section title="Partner With Us">
        <ul className="grid gap-4 md:grid-cols-3">
          {POINTS.map((p) => (
            <li key={p.title} className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <h3 className="font-bold">{p.title}</h3>
              <p className="mt-1 text-sm">{p.text}</p>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
