import type { Thing } from "schema-dts";
import type { Article } from "../../shared/article";
import type { CategoryWithPage } from "../../shared/categories";
import type { Head } from "../../shared/head";
import { requestLocation, seoTags, type PageSeo } from "../../shared/seo";
import { categoryFeedPath } from "../../shared/sitemap";
import { articleList, breadcrumbs, linked } from "../../shared/structured-data";

/** The head of the page `request` asks for, on SITE_URL: for a route's loader to send. */
export function pageHead(
  request: Request,
  siteUrl: string,
  seo: PageSeo,
  structuredData: Thing[] = [],
): Head {
  return {
    meta: seoTags(siteUrl, requestLocation(request), seo),
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
  siteUrl: string,
  category: CategoryWithPage,
  articles: Article[],
): Head {
  const head = pageHead(
    request,
    siteUrl,
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
