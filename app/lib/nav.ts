import { CATEGORY_PAGES, type CategoryWithPage } from "../../shared/categories";

export interface NavLink {
  label: string;
  to: string;
}

function linksOf(pages: readonly CategoryWithPage[]): NavLink[] {
  return pages.map((c) => ({ label: c.label, to: c.path }));
}

export interface HeaderLink extends NavLink {
  /** Shown only on extra-wide screens (>= 1280 px). */
  extraWide: boolean;
}

export const HEADER_LINKS: HeaderLink[] = CATEGORY_PAGES.filter((c) => c.inHeader !== false).map(
  (c) => ({ label: c.label, to: c.path, extraWide: c.inHeader === "extra-wide" }),
);

export const MOBILE_MENU_LINKS: NavLink[] = [
  { label: "Home", to: "/" },
  ...linksOf(CATEGORY_PAGES.filter((c) => c.inMobileMenu)),
  { label: "Archives", to: "/archives" },
  { label: "Events", to: "/events" },
  { label: "Blog", to: "/blog" },
  { label: "Partners", to: "/partners" },
  { label: "FAQ", to: "/faq" },
  { label: "Contact Us", to: "/contact-us" },
];

export const FOOTER_LINKS: NavLink[] = [
  { label: "Home", to: "/" },
  ...linksOf(CATEGORY_PAGES.filter((c) => c.inFooter)),
  { label: "Contact Us", to: "/contact-us" },
  { label: "About Us", to: "/about-us" },
  { label: "Privacy Policy", to: "/privacy-policy" },
  { label: "Terms of Service", to: "/terms-of-service" },
];

export const CATEGORY_CHIPS: NavLink[] = CATEGORY_PAGES.flatMap((c) =>
  c.chip ? [{ label: c.chip.label, to: c.chip.path }] : [],
);
