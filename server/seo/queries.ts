import { and, asc, desc, gte, lt, sql } from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import { rowsOf, type Database } from "../db/client";
import { articles, blogPosts } from "../db/schema";
import { LIVE } from "../news/repository";

/**
 * The sitemaps protocol's limit per file. A month's file holds ~8,500 articles at 30 feeds; one
 * past this many in a month (1,600 a day) would leave the rest out until files are split by week.
 */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  path: string;
  lastmod: Date | null;
}

/** A month as article sitemaps name it ("2026-11"), and its bounds in UTC. */
export function sitemapMonth(name: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(name);
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  if (!match || month < 1 || month > 12) return null;
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
}

/**
 * The article sitemaps: one per month (UTC) in which articles were first seen, oldest first, so a
 * file's contents stay put as new articles arrive, with when each last changed. The first and last
 * month come from the ends of the first-seen index and each month's last change is one probe of
 * the month index: no pass over every article (decision 030).
 */
export async function articleSitemapMonths(
  db: Database,
): Promise<{ month: string; lastmod: Date }[]> {
  const edge = (order: "ASC" | "DESC") =>
    sql.raw(
      `(SELECT date_trunc('month', first_seen_at AT TIME ZONE 'UTC') FROM articles WHERE taken_down_at IS NULL ORDER BY first_seen_at ${order} LIMIT 1)`,
    );
  const result = await db.execute(sql`
    SELECT to_char(m, 'YYYY-MM') AS month, lastmod FROM (
      SELECT m, (SELECT ${articles.updatedAt} FROM ${articles}
                  WHERE ${LIVE}
                    AND date_trunc('month', ${articles.firstSeenAt} AT TIME ZONE 'UTC') = m
                  ORDER BY ${articles.updatedAt} DESC LIMIT 1) AS lastmod
        FROM generate_series(${edge("ASC")}, ${edge("DESC")}, interval '1 month') AS m
    ) months
     WHERE lastmod IS NOT NULL
     ORDER BY m`);
  return rowsOf<{ month: string; lastmod: Date | string }>(result).map((r) => ({
    month: r.month,
    lastmod: new Date(r.lastmod),
  }));
}

/** The articles first seen in `month` ("2026-11"), in the order they were first seen. */
export async function articleSitemap(db: Database, month: string): Promise<SitemapEntry[]> {
  const bounds = sitemapMonth(month);
  if (!bounds) return [];
  const rows = await db
    .select({ id: articles.id, updatedAt: articles.updatedAt })
    .from(articles)
    .where(and(LIVE, gte(articles.firstSeenAt, bounds.from), lt(articles.firstSeenAt, bounds.to)))
    .orderBy(asc(articles.firstSeenAt), asc(articles.id))
    .limit(SITEMAP_MAX_URLS);
  return rows.map((r) => ({ path: `/article/${r.id}`, lastmod: r.updatedAt }));
}

/**
 * When each category's page last changed: the latest change among its newest 100 stories (its
 * first pages), one walk of the category index each rather than a pass over every article.
 */
export async function categoryLastChanged(
  db: Database,
  categories: readonly CategoryKey[],
): Promise<Map<CategoryKey, Date>> {
  const result = await db.execute(sql`
    SELECT c.key AS category,
           (SELECT max(updated_at) FROM (
              SELECT ${articles.updatedAt} AS updated_at FROM ${articles}
               WHERE ${articles.category} = c.key AND ${LIVE}
               ORDER BY ${articles.publishedAt} DESC LIMIT 100) newest) AS lastmod
      FROM unnest(${`{${categories.join(",")}}`}::text[]) AS c(key)`);
  return new Map(
    rowsOf<{ category: string; lastmod: Date | string | null }>(result).flatMap((r) =>
      r.lastmod ? [[r.category as CategoryKey, new Date(r.lastmod)]] : [],
    ),
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
