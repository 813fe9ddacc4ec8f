import { data, redirect } from "react-router";
import { readOr503 } from "../../server/news/load";
import {
  articleSitemap,
  blogSitemap,
  categoryLastChanged,
  sitemapFile,
} from "../../server/seo/queries";
import { urlSet } from "../../server/seo/xml";
import { articleCategory } from "../../shared/categories";
import { CATEGORY_SITEMAP_PAGES, STATIC_SITEMAP_PATHS } from "../../shared/sitemap";
import type { Route } from "./+types/sitemap-file";
import { XML_HEADERS } from "./sitemap-index";

/** /sitemaps/{pages|categories|blog|articles-YYYY-MM|articles-YYYY-MM-N}.xml */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, logger } = context;
  const siteUrl = context.config.siteUrl;
  const name = params.file;
  // The numbered article sitemaps that came before the monthly ones: search engines that kept one
  // are sent to the index, which names the months.
  if (/^articles-\d+\.xml$/.test(name)) return redirect("/sitemap.xml", 301);
  const entries = await readOr503(logger, "A sitemap could not be read", async () => {
    if (name === "pages.xml") return STATIC_SITEMAP_PATHS.map((path) => ({ path, lastmod: null }));
    if (name === "categories.xml") {
      const changed = await categoryLastChanged(
        db,
        CATEGORY_SITEMAP_PAGES.map((c) => articleCategory(c)),
      );
      return CATEGORY_SITEMAP_PAGES.map((c) => ({
        path: c.path,
        lastmod: changed.get(articleCategory(c)) ?? null,
      }));
    }
    if (name === "blog.xml") return blogSitemap(db);
    const file = sitemapFile(/^articles-(.+)\.xml$/.exec(name)?.[1] ?? "");
    if (file) {
      const urls = await articleSitemap(db, file.month, file.part);
      if (urls.length > 0) return urls;
    }
    return null;
  });
  if (!entries) throw data("Not Found", { status: 404 });
  return new Response(urlSet(siteUrl, entries), { headers: XML_HEADERS });
}
