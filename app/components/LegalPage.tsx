import { Link } from "react-router";
import { PageHeading } from "./PageHeading";

interface Props {
  title: string;
  /** "April 26, 2025" on the long legal pages. */
  lastUpdated?: string;
  sibling?: { label: string; to: string };
  children: React.ReactNode;
}

export function LegalPage({ title, lastUpdated, sibling, children }: Props) {
  return (
    <article className="mx-auto max-w-3xl">
      <PageHeading>{title}</PageHeading>
      {lastUpdated ? (
        <p className="mb-6 text-sm text-slate-600">Last updated: {lastUpdated}</p>
      ) : null}
      <div className="space-y-4">{children}</div>
      {sibling ? (
        <nav aria-label="Quick links" className="mt-10 rounded bg-slate-100 p-4">
          <h2 className="font-semibold">Quick links</h2>
          <ul className="mt-2 flex flex-wrap gap-4 text-brand underline">
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
      ) : null}
    </article>
  );
}
