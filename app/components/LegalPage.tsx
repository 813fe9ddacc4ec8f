import { Link } from "react-router";
import type { LegalText, Section as LegalSection } from "../../server/content/load";
import { PageAds } from "./PageAds";
import { PageHeading } from "./PageHeading";

interface Props {
  text: LegalText;
  /** The companion page, first of the quick links: the sibling long text, or a summary's full text. */
  sibling: { label: string; to: string };
}

/** "Information we collect" -> "information-we-collect", for the contents' anchors. */
function sectionId(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

// Long texts get a list of contents; a short summary is read at a glance.
const CONTENTS_FROM = 6;

function Contents({ sections }: { sections: readonly LegalSection[] }) {
  return (
    <nav
      aria-label="Contents"
      className="mb-8 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <p className="font-semibold">Contents</p>
      <ol className="mt-2 list-decimal space-y-1 pl-6 text-brand sm:columns-2 sm:gap-8">
        {sections.map((s) => (
          <li key={s.heading}>
            <a href={`#${sectionId(s.heading)}`} className="underline underline-offset-2">
              {s.heading}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A legal text from `content/*.md`: title, date, intro, its sections, then quick links. */
export function LegalPage({ text, sibling }: Props) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading>{text.title}</PageHeading>
      {text.lastUpdated ? (
        <p className="-mt-4 mb-6 text-sm text-slate-600">Last updated: {text.lastUpdated}</p>
      ) : null}
      {text.intro.map((p) => (
        <p key={p} className="mb-8 text-lg text-slate-700">
          {p}
        </p>
      ))}
      {text.sections.length >= CONTENTS_FROM ? <Contents sections={text.sections} /> : null}
      {text.sections.map((section) => (
        // Unnamed sections: a dozen landmarks would crowd a screen reader's list of them.
        <section key={section.heading} className="mb-8">
          <h2 id={sectionId(section.heading)} className="mb-3 scroll-mt-4 text-2xl font-bold">
            {section.heading}
          </h2>
          <div className="space-y-4 leading-relaxed">
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
            {section.list ? (
              <ul className="list-disc space-y-2 pl-6">
                {section.list.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </section>
      ))}
      <nav aria-label="Quick links" className="mt-10 rounded bg-slate-100 p-4">
        <h2 className="font-semibold">Quick links</h2>
        <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-2 text-brand underline">
          <li>
            <Link to={sibling.to}>{sibling.label}</Link>
          </li>
          <li>
            <Link to="/about-us">About Us</Link>
          </li>
          <li>
            <Link to="/contact-us">Contact Us</Link>
          </li>
        </ul>
      </nav>
      <PageAds kind="page" at="end" className="mt-10" />
    </article>
  );
}
