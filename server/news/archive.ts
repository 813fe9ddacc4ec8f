import { and, asc, desc, eq, gt, gte, lte, sql } from "drizzle-orm";
import type { Article } from "../../shared/article";
import type { CategoryKey } from "../../shared/categories";
import type { ListCursor } from "../../shared/list-cursor";
import { SAN_DIEGO_ZONE } from "../../shared/san-diego-time";
import type { Database } from "../db/client";
import { archiveCounts, articles } from "../db/schema";
import { remembered } from "./read-cache";
import { articleFields, leadsOf, LIVE, toArticle } from "./repository";

/** The archives page's reads: its years and its pages of stories, counted by archive_counts. */

/** archive_counts' rows for every category together (migration 0019). */
export const EVERY_CATEGORY = "";

/** Years (in San Diego time) that have stories on the site, newest first (archive_counts). */
async function readArchiveYears(db: Database): Promise<number[]> {
  const rows = await db
    .select({ year: archiveCounts.year })
    .from(archiveCounts)
    .where(and(eq(archiveCounts.category, EVERY_CATEGORY), gt(archiveCounts.articles, 0)))
    .orderBy(desc(archiveCounts.year));
  return rows.map((r) => r.year);
}
export const archiveYears = remembered("archiveYears", readArchiveYears);

/**
 * One page of the archives: articles of a category (or all) within a year, newest first. A cursor
 * reads on from a story with the date index (keyset paging); `offset` is only for `?page=N`
 * addresses without one, which older links hold. The total comes from archive_counts.
 */
async function readArchiveArticles(
  db: Database,
  options: {
    category?: CategoryKey;
    year: number;
    limit: number;
    offset: number;
    cursor?: ListCursor;
  },
): Promise<{ articles: Article[]; total: number }> {
  // Bounds rather than extract(): the (category, published_at) index can serve a range.
  const from = sql`make_timestamptz(${options.year}, 1, 1, 0, 0, 0, ${SAN_DIEGO_ZONE}::text)`;
  const to = sql`make_timestamptz(${options.year + 1}, 1, 1, 0, 0, 0, ${SAN_DIEGO_ZONE}::text)`;
  const { cursor } = options;
  const at = cursor ? new Date(cursor.date) : undefined;
  // Newest first, then by id: "after" is older (or as old with a later id), "before" the reverse.
  const beyond =
    cursor && at
      ? cursor.direction === "after"
        ? sql`(${articles.publishedAt} < ${at} OR (${articles.publishedAt} = ${at} AND ${articles.id} > ${cursor.id}))`
        : sql`(${articles.publishedAt} > ${at} OR (${articles.publishedAt} = ${at} AND ${articles.id} < ${cursor.id}))`
      : undefined;
  const where = and(
    LIVE,
    options.category ? eq(articles.category, options.category) : undefined,
    leadsOf(options.category),
    sql`${articles.publishedAt} >= ${from}`,
    sql`${articles.publishedAt} < ${to}`,
    beyond,
    // The same bound as a plain range, which the index serves; `beyond` then settles ties.
    at
      ? cursor?.direction === "after"
        ? lte(articles.publishedAt, at)
        : gte(articles.publishedAt, at)
      : undefined,
  );
  const backwards = cursor?.direction === "before";
  const [rows, [counted]] = await Promise.all([
    db
      .select(articleFields)
      .from(articles)
      .where(where)
      .orderBy(
        ...(backwards
          ? [asc(articles.publishedAt), desc(articles.id)]
          : [desc(articles.publishedAt), asc(articles.id)]),
      )
      .limit(options.limit)
      .offset(cursor ? 0 : options.offset),
    db
      .select({ n: sql<number>`coalesce(sum(${archiveCounts.articles}), 0)::int` })
      .from(archiveCounts)
      .where(
        and(
          eq(archiveCounts.year, options.year),
          eq(archiveCounts.category, options.category ?? EVERY_CATEGORY),
        ),
      ),
  ]);
  const list = rows.map(toArticle);
  return { articles: backwards ? list.reverse() : list, total: counted?.n ?? 0 };
}
export const archiveArticles = remembered("archiveArticles", readArchiveArticles);
