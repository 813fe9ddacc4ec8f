import type { MetaDescriptor } from "react-router";
import { rootDataOf, type MetaContext } from "../../shared/head";
import { seoTags, type PageSeo } from "../../shared/seo";

/** The head of a page: title, description, canonical URL on SITE_URL, social tags. */
export function pageMeta(args: MetaContext, seo: PageSeo): MetaDescriptor[] {
  const { siteUrl, site } = rootDataOf(args.matches);
  return seoTags(siteUrl, site, args.location, seo);
}
