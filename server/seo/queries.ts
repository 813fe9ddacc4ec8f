import { and, asc, desc, gte, lt, sql } from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import { rowsOf, type Database } from "../db/client";
import { articles, blogPosts, sitemapMonths } from "../db/schema";
import { LIVE } from "../news/repository";

/** The sitemaps protocol's limit per file: a month with more is split into several files. */
const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  path: string;
  lastmod: Date | null;
}

/** A month's article sitemap file: "2026-11" is its first part, "2026-11-2" its second. */
export interface SitemapFile {
  month: string;
  /** From 1; a month holds ceil(articles / SITEMAP_MAX_URLS) parts. */
  part: number;
}

/** The file's name in /sitemaps/articles-{name}.xml. */
export const sitemapFileName = ({ month, part }: SitemapFile) =>
  part === 1 ? month : `${month}-${part}`;

/** A file name as article sitemaps give it ("2026-11", "2026-11-2"), or null. */
export function sitemapFile(name: string): SitemapFile | null {
  const match = /^(\d{4}-\d{2})(?:-(\d{1,4}))?$/.exec(name);
  const part = match?.[2] === undefined ? 1 : Number(match[2]);
  // The first part has one name only: "2026-11", never "2026-11-1".
  if (!match?.[1] || !sitemapMonth(match[1]) || part < 1 || match[2] === "1") return null;
  return { month: match[1], part };
}

/** A month as article sitemaps name it ("2026-11"), and its bounds in UTC. */
function sitemapMonth(name: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(name);
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  if (!match || month < 1 || month > 12) return null;
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
}

/**
 * The article sitemaps: one per month (UTC) in which articles were first seen, oldest first, so a
 * file's contents stay put as new articles arrive, with when each last changed; a month of more
 * than `perFile` articles has a file for each `perFile` of them. The months and their counts are
 * sitemap_months' rows, kept by triggers (migration 0020); each month's last change is one probe
 * of the month index: no pass over every article (decision 030).
 */
export async function articleSitemapMonths(
  db: Database,
  perFile = SITEMAP_MAX_URLS,
): Promise<(SitemapFile & { lastmod: Date })[]> {
  const result = await db.execute(sql`
    SELECT month, articles, lastmod FROM (
      SELECT ${sitemapMonths.month} AS month, ${sitemapMonths.articles} AS articles,
             (SELECT ${articles.updatedAt} FROM ${articles}
               WHERE ${LIVE}
                 AND date_trunc('month', ${articles.firstSeenAt} AT TIME ZONE 'UTC')
                     = to_date(${sitemapMonths.month}, 'YYYY-MM')::timestamp
               ORDER BY ${articles.updatedAt} DESC LIMIT 1) AS lastmod
        FROM ${sitemapMonths}
       WHERE ${sitemapMonths.articles} > 0
    ) months
     WHERE lastmod IS NOT NULL
     ORDER BY month`);
  return rowsOf<{ month: string; articles: number | string; lastmod: Date | string }>(
    result,
  ).flatMap((r) =>
    Array.from({ length: Math.max(1, Math.ceil(Number(r.articles) / perFile)) }, (_, i) => ({
      month: r.month,
      part: i + 1,
      lastmod: new Date(r.lastmod),
    })),
  );
}

/** The articles of one file of `month`'s ("2026-11"), in the order they were first seen. */
export async function articleSitemap(
  db: Database,
  month: string,
  part = 1,
  perFile = SITEMAP_MAX_URLS,
): Promise<SitemapEntry[]> {
  const bounds = sitemapMonth(month);
  if (!bounds) return [];
  const rows = await db
    .select({ id: articles.id, updatedAt: articles.updatedAt })
    .from(articles)
    .where(and(LIVE, gte(articles.firstSeenAt, bounds.from), lt(articles.firstSeenAt, bounds.to)))
    .orderBy(asc(articles.firstSeenAt), asc(articles.id))
    .limit(perFile)
    .offset((part - 1) * perFile);
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
