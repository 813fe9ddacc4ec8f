import { readOr503 } from "../../server/news/load";
import { articleSitemapMonths, sitemapFileName } from "../../server/seo/queries";
import { sitemapIndex } from "../../server/seo/xml";
import { cacheKeyHeaders, SITEMAPS_KEY } from "../../shared/cache-keys";
import type { Route } from "./+types/sitemap-index";

export const XML_HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=300",
  ...cacheKeyHeaders([SITEMAPS_KEY]),
};

/** /sitemap.xml: the index of the child sitemaps, with when each last changed. */
export async function loader({ context }: Route.LoaderArgs) {
  const pages = await readOr503(context.logger, "The sitemap could not be read", () =>
    articleSitemapMonths(context.db),
  );
  const newest = pages.reduce<Date | null>(
    (latest, p) => (latest && latest > p.lastmod ? latest : p.lastmod),
    null,
  );
  const body = sitemapIndex(context.config.siteUrl, [
    { path: "/sitemaps/pages.xml", lastmod: null },
    { path: "/sitemaps/categories.xml", lastmod: newest },
    ...pages.map((p) => ({
      path: `/sitemaps/articles-${sitemapFileName(p)}.xml`,
      lastmod: p.lastmod,
    })),
    { path: "/sitemaps/blog.xml", lastmod: null },
  ]);
  return new Response(body, { headers: XML_HEADERS });
}
