import { readOr503 } from "../../server/news/load";
import { latestArticles } from "../../server/news/repository";
import { rssFeed } from "../../server/seo/xml";
import { articleCategory, categoryByKey, categoryByPath } from "../../shared/categories";
import { cacheKeyHeaders, categoryKey, FEEDS_KEY } from "../../shared/cache-keys";
import type { Route } from "./+types/rss";

/** Items in the site-wide feed; a category's feed carries its page's 15. */
const SITE_FEED_ITEMS = 50;
const CATEGORY_FEED_ITEMS = 15;

/** The headers of every RSS feed of the site, with the cache keys whose changes renew it. */
export const rssHeaders = (keys: readonly string[]) => ({
  "Content-Type": "application/rss+xml; charset=utf-8",
  "Cache-Control": "public, max-age=300",
  ...cacheKeyHeaders(keys),
});

/** /rss.xml (the latest across categories) and /{category}/rss.xml (one category page's stories). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { site } = context.content;
  const selfPath = new URL(request.url).pathname;
  const category =
    params.category === undefined ? undefined : categoryByPath(`/${params.category}`);
  if (params.category !== undefined && !category) {
    context.logger.warn({ path: selfPath }, "404: no route matches the path");
    return new Response("Not Found\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const articles = await readOr503(context.logger, "A feed could not be read", () =>
    latestArticles(
      context.db,
      category
        ? { category: articleCategory(category), limit: CATEGORY_FEED_ITEMS }
        : { limit: SITE_FEED_ITEMS },
    ),
  );
  const body = rssFeed({
    siteUrl: context.config.siteUrl,
    selfPath,
    pagePath: category?.path ?? "/",
    title: category ? `${site.name}: ${category.heading}` : site.name,
    description: category
      ? `The latest ${category.name} stories for San Diego readers.`
      : `${site.tagline}: the latest stories.`,
    articles,
    categoryName: (article) => categoryByKey(article.category).name,
  });
  return new Response(body, {
    // The site's feed lists every category; a category's, its own (its page's stories).
    headers: rssHeaders(
      category ? [FEEDS_KEY, categoryKey(articleCategory(category))] : [FEEDS_KEY],
    ),
  });
}
