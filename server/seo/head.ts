import type { Thing } from "schema-dts";
import type { Article } from "../../shared/article";
import type { CategoryWithPage } from "../../shared/categories";
import type { Head } from "../../shared/head";
import { requestLocation, seoTags, type PageSeo } from "../../shared/seo";
import { categoryFeedPath } from "../../shared/sitemap";
import type { LoadContext } from "../http/load-context";
import { articleList, breadcrumbs, linked } from "../../shared/structured-data";

/** The head of the page `request` asks for, on SITE_URL: for a route's loader to send. */
export function pageHead(
  request: Request,
  { config, content }: Pick<LoadContext, "config" | "content">,
  seo: PageSeo,
  structuredData: Thing[] = [],
): Head {
  return {
    meta: seoTags(config.siteUrl, content.site, requestLocation(request), seo),
    structuredData: linked(structuredData),
  };
}

/** The page's address on SITE_URL without its query, as structured data names it. */
export function pageUrl(request: Request, siteUrl: string): string {
  return `${siteUrl}${requestLocation(request).pathname}`;
}

/** A category page's head: its feed linked, its breadcrumb and the list of its stories. */
export function categoryHead(
  request: Request,
  context: Pick<LoadContext, "config" | "content">,
  category: CategoryWithPage,
  articles: Article[],
): Head {
  const siteUrl = context.config.siteUrl;
  const head = pageHead(
    request,
    context,
    {
      title: category.heading,
      description:
        category.key === "community"
          ? "San Diego community stories, upcoming neighborhood events, local resources and the reader poll."
          : `The latest ${category.name} stories for San Diego readers.`,
    },
    [
      breadcrumbs(siteUrl, [{ name: category.heading, path: category.path }]),
      articleList(siteUrl, `${category.heading}: latest stories`, articles),
    ],
  );
  head.meta.push({
    tagName: "link",
    rel: "alternate",
    type: "application/rss+xml",
    title: `${category.heading} stories`,
    href: categoryFeedPath(category.path),
  });
  return head;
}
