import { notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { blogPosts } from "../db/schema";
import type { BlogPostSummary, BlogSource } from "./source";

/** A bound on how far the copy pages through a source; far more posts than a newsroom writes. */
const MAX_PAGES = 200;

function dateOrNull(value: string | null): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/**
 * Copies the blog's posts into the database so search can find them beside the articles: every
 * post the source lists is upserted, and posts it no longer lists are removed. A source that fails
 * part-way changes nothing (the copy is written in one transaction, after the whole list is read).
 */
export async function syncBlogIndex(
  db: Database,
  source: BlogSource,
): Promise<{ posts: number; removed: number }> {
  const posts: BlogPostSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { posts: batch, total } = await source.list(page);
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
        });
    }
    const removed = await tx
      .delete(blogPosts)
      .where(
        unique.length > 0
          ? notInArray(
              blogPosts.slug,
              unique.map((post) => post.slug),
            )
          : undefined,
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
