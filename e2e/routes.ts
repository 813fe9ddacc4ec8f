import { CATEGORY_PAGES } from "../shared/categories";

/** Every route that answers 200, in the order of the route table. Category pages come from the registry. */
export const OK_ROUTES: readonly string[] = [
  "/",
  ...CATEGORY_PAGES.map((c) => c.path),
  "/archives",
  "/events",
  "/local-events",
  "/contact-us",
  "/about-us",
  "/privacy-policy",
  "/terms-of-service",
  "/privacy",
  "/terms",
  "/blog",
  "/partners",
  "/faq",
  "/search",
  "/search?q=harbor",
  "/newsletter",
  "/corrections",
];

/** Routes that answer 404 with a screen of their own. */
export const NOT_FOUND_ROUTES: readonly string[] = [
  "/no-such-page",
  "/not-found",
  "/blog/unknown-slug",
];
