import type { MetaDescriptor } from "react-router";
import { seoTags, type PageSeo } from "../../shared/seo";

export { pageTitle } from "../../shared/title";

/** What a route's `meta` receives that the head needs: where the page is, and the root's data. */
export interface MetaContext {
  location: { pathname: string; search: string };
  matches: readonly ({ id: string; data?: unknown; loaderData?: unknown } | undefined)[];
}

/** The public origin (SITE_URL), as the root loader sent it. */
export function siteUrlOf(matches: MetaContext["matches"]): string {
  const root = matches.find((m) => m?.id === "root");
  const data = (root?.loaderData ?? root?.data) as { siteUrl?: string } | undefined;
  return data?.siteUrl ?? "";
}

/** The head of a page: title, description, canonical URL on SITE_URL, social tags. */
export function pageMeta(args: MetaContext, seo: PageSeo): MetaDescriptor[] {
  return seoTags(siteUrlOf(args.matches), args.location, seo);
}
