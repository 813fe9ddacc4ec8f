import { and, asc, desc, gte, max, sql } from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import type { Database } from "../db/client";
import { articles, blogPosts } from "../db/schema";
import { LIVE } from "../news/repository";

/** Articles per sitemap file: the sitemaps protocol allows 50,000; smaller files fetch faster. */
export const SITEMAP_PAGE_SIZE = 10_000;

export interface SitemapEntry {
  path: string;
  lastmod: Date | null;
}

/**
 * The article sitemaps, oldest first so a file's contents stay put as new articles arrive: how many
 * files there are and when each last changed.
 */
export async function articleSitemapPages(
  db: Database,
): Promise<{ page: number; lastmod: Date }[]> {
  const result = await db.execute(sql`
    SELECT page, max(updated_at) AS lastmod FROM (
      SELECT (row_number() OVER (ORDER BY ${articles.firstSeenAt}, ${articles.id}) - 1) / ${SITEMAP_PAGE_SIZE} + 1 AS page,
             ${articles.updatedAt} AS updated_at
        FROM ${articles} WHERE ${LIVE}
    ) numbered GROUP BY page ORDER BY page`);
  const rows = (result as unknown as { rows: { page: number | string; lastmod: Date | string }[] })
    .rows;
  return rows.map((r) => ({ page: Number(r.page), lastmod: new Date(r.lastmod) }));
}

export async function articleSitemap(db: Database, page: number): Promise<SitemapEntry[]> {
  const rows = await db
    .select({ id: articles.id, updatedAt: articles.updatedAt })
    .from(articles)
    .where(LIVE)
    .orderBy(asc(articles.firstSeenAt), asc(articles.id))
    .limit(SITEMAP_PAGE_SIZE)
    .offset((page - 1) * SITEMAP_PAGE_SIZE);
  return rows.map((r) => ({ path: `/article/${r.id}`, lastmod: r.updatedAt }));
}

/** When each category last gained or changed an article. */
export async function categoryLastChanged(db: Database): Promise<Map<CategoryKey, Date>> {
  const rows = await db
    .select({ category: articles.category, lastmod: max(articles.updatedAt) })
    .from(articles)
    .where(LIVE)
    .groupBy(articles.category);
  return new Map(
    rows.flatMap((r) => (r.lastmod ? [[r.category as CategoryKey, new Date(r.lastmod)]] : [])),
  );
}

export async function blogSitemap(db: Database): Promise<SitemapEntry[]> {
  const rows = await db
    .select({ slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .orderBy(desc(blogPosts.publishedAt), asc(blogPosts.slug));
  return rows.map((r) => ({ path: `/blog/${r.slug}`, lastmod: r.updatedAt }));
}

/** Google News wants the articles of the last two days, at most 1,000. */
export async function recentForNewsSitemap(db: Database, now: Date) {
  const since = new Date(now.getTime() - 48 * 3600_000);
  return db
    .select({
      id: articles.id,
      title: articles.title,
      publishedAt: articles.publishedAt,
    })
    .from(articles)
    .where(and(LIVE, gte(articles.publishedAt, since), sql`${articles.publishedAt} <= ${now}`))
    .orderBy(desc(articles.publishedAt), asc(articles.id))
    .limit(1000);
}
