import { CATEGORY_PAGES } from "./categories";

/**
 * Pages that are not lists of articles, for the sitemap. Pages kept out of search engines
 * (the long legal texts, search, not-found) are not here.
 */
export const STATIC_SITEMAP_PATHS = [
  "/",
  "/archives",
  "/blog",
  "/events",
  "/local-events",
  "/about-us",
  "/contact-us",
  "/faq",
  "/partners",
  "/newsletter",
  "/corrections",
  "/privacy",
  "/terms",
] as const;

export const CATEGORY_SITEMAP_PAGES = CATEGORY_PAGES;

/** The address of a category page's own RSS feed. */
export function categoryFeedPath(pagePath: string): string {
  return `${pagePath}/rss.xml`;
}
