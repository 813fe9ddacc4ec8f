import { Link } from "react-router";
import type { SiteSettings } from "../../server/content/load";
import { sanDiegoYear } from "../lib/dates";
import { FOOTER_LINKS } from "../lib/nav";

/** What the footer shows of the site settings (content/site.yaml). */
type FooterSettings = Omit<SiteSettings, "breaking">;

/** The site's footer: sections, contact details, social and partner links, the year. */
export function Footer({ site }: { site: FooterSettings }) {
  return (
    <footer className="mt-12 bg-slate-900 text-slate-200">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{site.name}</p>
          <p className="mt-2 text-sm">
            {site.tagline}. Founded in {site.foundingYear}.
          </p>
        </div>
        <nav aria-label="Footer">
          <h2 className="font-semibold text-white">Sections</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <OutsideList title="Follow us" links={site.social} />
        <OutsideList
          title="Our network"
          links={site.partnerSites.map((p) => ({ url: p.url, label: p.name }))}
        />
      </div>
      <p className="border-t border-slate-700 py-4 text-center text-xs">
        © {sanDiegoYear()} {site.name}
      </p>
    </footer>
  );
}

/** A column of links to other sites, each opening in a new tab. */
function OutsideList({ title, links }: { title: string; links: { url: string; label: string }[] }) {
  return (
    <div>
      <h2 className="font-semibold text-white">{title}</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {links.map((link) => (
          <li key={link.url}>
            <a
              href={link.url}
              rel="noopener noreferrer"
              target="_blank"
              className="hover:underline"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
