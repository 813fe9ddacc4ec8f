import { withBlogPictures } from "../../server/blog/pictures";
import { BLOG_PAGE_SIZE, type BlogPostSummary } from "../../server/blog/source";
import { readOr503 } from "../../server/news/load";
import { rssChannel } from "../../server/seo/xml";
import { BLOG_DESCRIPTION } from "../lib/blog";
import { BLOG_KEY } from "../../shared/cache-keys";
import { rssHeaders } from "./rss";
import type { Route } from "./+types/blog-rss";

/** Posts in the feed: the first two pages of the list. */
const FEED_ITEMS = 20;

/**
 * /blog/rss.xml: the blog's newest posts, the newsroom's and the configured source's together, as
 * the blog page lists them. A source that cannot answer leaves the newsroom's posts in the feed
 * (and is logged); a blog that cannot be read at all answers 503.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { siteUrl } = context.config;
  const posts = await readOr503(context.logger, "The blog feed could not be read", async () => {
    const newest: BlogPostSummary[] = [];
    for (let page = 1; newest.length < FEED_ITEMS; page++) {
      const { posts: batch, total } = await context.blog.list(page);
      newest.push(...batch);
      if (batch.length < BLOG_PAGE_SIZE || page * BLOG_PAGE_SIZE >= total) break;
    }
    return withBlogPictures(context.db, context.logger, newest.slice(0, FEED_ITEMS));
  });
  const body = rssChannel({
    siteUrl,
    selfPath: new URL(request.url).pathname,
    pagePath: "/blog",
    title: `${context.content.site.name}: Blog`,
    description: BLOG_DESCRIPTION,
    items: posts.map((post) => ({
      url: `${siteUrl}/blog/${encodeURIComponent(post.slug)}`,
      title: post.title,
      date: post.date,
      description: post.description,
      picture: post.picture,
    })),
  });
  return new Response(body, { headers: rssHeaders([BLOG_KEY]) });
}
