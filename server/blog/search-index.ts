import { and, notExists, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { blogPosts, newsroomPosts } from "../db/schema";
import { BlogSourceError, type BlogPostSummary, type BlogSource } from "./source";

/** A bound on how far the copy pages through a source; far more posts than a newsroom writes. */
const MAX_PAGES = 200;

function dateOrNull(value: string | null): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/**
 * Copies the blog's posts into the database so search can find them beside the articles: every
 * post the source lists is upserted, and posts it no longer lists are removed. A source that fails
 * part-way changes nothing (the copy is written in one transaction, after the whole list is read),
 * nor does a list that holds only part of the blog (`failure`). The newsroom's published blog
 * posts are never removed: publishing writes their copy, unpublishing removes it
 * (server/newsroom/posts.ts). A post's `updated_at` (the sitemap's lastmod) moves only when its
 * copy changes.
 */
export async function syncBlogIndex(
  db: Database,
  source: BlogSource,
): Promise<{ posts: number; removed: number }> {
  const posts: BlogPostSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { posts: batch, total, failure } = await source.list(page);
    if (failure) throw new BlogSourceError(failure);
    posts.push(...batch);
    if (batch.length === 0 || posts.length >= total) break;
  }
  const unique = [...new Map(posts.map((post) => [post.slug, post])).values()];
  const now = new Date();
  return db.transaction(async (tx) => {
    if (unique.length > 0) {
      await tx
        .insert(blogPosts)
        .values(
          unique.map((post) => ({
            slug: post.slug,
            title: post.title,
            description: post.description,
            image: post.image,
            publishedAt: dateOrNull(post.date),
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: blogPosts.slug,
          set: {
            title: sql`excluded.title`,
            description: sql`excluded.description`,
            image: sql`excluded.image`,
            publishedAt: sql`excluded.published_at`,
            updatedAt: now,
          },
          setWhere: sql`(${blogPosts.title}, ${blogPosts.description}, ${blogPosts.image}, ${blogPosts.publishedAt})
            IS DISTINCT FROM (excluded.title, excluded.description, excluded.image, excluded.published_at)`,
        });
    }
    const removed = await tx
      .delete(blogPosts)
      .where(
        and(
          unique.length > 0
            ? notInArray(
                blogPosts.slug,
                unique.map((post) => post.slug),
              )
            : undefined,
          notExists(
            tx
              .select({ one: sql`1` })
              .from(newsroomPosts)
              .where(
                sql`${newsroomPosts.slug} = ${blogPosts.slug} AND ${newsroomPosts.kind} = 'blog' AND ${newsroomPosts.status} = 'published'`,
              ),
          ),
        ),
      )
      .returning({ slug: blogPosts.slug });
    return { posts: unique.length, removed: removed.length };
  });
}

/** The copy for search, after each ingest pass; a blog that cannot be read keeps its last copy. */
export async function refreshBlogIndex(
  db: Database,
  source: BlogSource,
  logger: Logger,
): Promise<{ posts: number } | null> {
  try {
    const { posts } = await syncBlogIndex(db, source);
    return { posts };
  } catch (error) {
    logger.warn({ err: error }, "the blog could not be copied for search; the last copy stays");
    return null;
  }
}
