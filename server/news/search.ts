import { asArticlePicture, sitePicture, type ArticlePicture } from "../../shared/picture";
import { sql, type SQL } from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import type { Highlighted } from "../../shared/highlight";
import { rowsOf, type Database } from "../db/client";
import { SEARCH_CONFIG } from "../db/schema";
import { searchWindowsOf, type SearchWindow } from "./search-window";

/** Results on one page of /search. */
export const SEARCH_PAGE_SIZE = 20;
/** Longer queries are cut: nobody types more, and it bounds the work of one request. */
export const MAX_QUERY_LENGTH = 200;

// Matched words come back between these two control characters, which stored text never holds
// (ingest strips C0 controls), so the page can mark them without trusting any HTML.
const MATCH_START = "\u0001";
const MATCH_END = "\u0002";
const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, HighlightAll=true`;

interface HitFields {
  title: Highlighted;
  excerpt: Highlighted;
  picture: ArticlePicture | null;
  /** ISO 8601, or null for a blog post without a date. */
  date: string | null;
}

export type SearchHit =
  | (HitFields & {
      kind: "article";
      id: string;
      category: CategoryKey;
      author: string;
      /** The publication's own story (decision 028); absent on a feed story. */
      own?: true;
      /** The outlets of its story group's other versions (decision 032); absent alone. */
      alsoCoveredBy?: string[];
    })
  | (HitFields & { kind: "blog"; slug: string });

/**
 * Where an Older stories link starts: stories published before `date`, or at `date` with an id
 * before `id` (newest first, ties by id; an empty id is a date alone).
 */
export interface SearchCursor {
  date: Date;
  id: string;
}

export interface SearchPage {
  hits: SearchHit[];
  /**
   * Matches in all pages (of articles, the newest RANKED_MATCHES at most: of the site's window when
   * it holds a page of them).
   */
  total: number;
  /** Nothing matched the words: the hits are this query's, its words corrected (a typo's). */
  near?: string;
  /** Stories older than this may match too: they were not read (newestMatches). */
  older?: SearchCursor;
}

/** A matched run: its text is the group (to the headline's end when it has no MATCH_END). */
const MATCHED = new RegExp(`${MATCH_START}([^${MATCH_END}]*)${MATCH_END}?`);

/** Splits a headline into plain and matched runs. */
export function splitHeadline(headline: string): Highlighted {
  return headline
    .split(MATCHED)
    .map((text, i) => ({ text, match: i % 2 === 1 }))
    .filter((run) => run.text.length > 0);
}

interface HitRow {
  kind: "article" | "blog";
  key: string;
  title: string;
  excerpt: string;
  picture: unknown;
  /** A blog post's own image address, shown as it is when it is a path of our site. */
  image: string | null;
  category: string | null;
  author: string | null;
  own: boolean;
  also_covered_by: string[] | null;
  published_at: Date | string | null;
  total: number | string;
}

/**
 * Only the newest this many matching articles are ranked (5 pages): a common word matches tens of
 * thousands of stories after a few years, and ranking them all cost hundreds of milliseconds
 * (decisions 030, 035). Readers page through the best of these, and on to older ones by the Older
 * stories link.
 */
export const RANKED_MATCHES = 100;

/**
 * The newest RANKED_MATCHES live stories matching the query, as a CTE body, read window by window
 * (server/news/search-window.ts), newest first, each through its own index (the same date in the
 * query as in the index's predicate, so the planner uses it), the next only while those before it
 * hold fewer than RANKED_MATCHES. When the largest is the site's (SearchWindow.cuts) and holds
 * `enough` matches (a page), they are ranked on their own and the reader goes on to older stories
 * by a link (SearchPage.older); else older stories are read too. `before` bounds every part (that
 * link's pages).
 */
function newestMatches(
  query: string,
  windows: SearchWindow[],
  enough: number,
  before: SearchCursor | null,
): SQL {
  const columns = sql`a.id, a.title, a.excerpt, a.picture, a.category, a.author, a.own,
    a.published_at, a.search, a.story_group, a.group_lead, a.also_covered_by`;
  const matching = sql`a.search @@ ${tsQuery(query)} AND a.taken_down_at IS NULL
    ${before ? sql`AND a.published_at <= ${before.date} AND (a.published_at, a.id) < (${before.date}, ${before.id})` : sql``}`;
  const last = windows.at(-1);
  if (last === undefined) {
    return sql`SELECT ${columns} FROM articles a WHERE ${matching}
                ORDER BY a.published_at DESC, a.id DESC LIMIT ${RANKED_MATCHES}`;
  }
  // Every match of a window is read (no ORDER BY … LIMIT in it): walking the date index instead,
  // which the planner may prefer, reads every story of the window that does not match. A window
  // holds the smaller ones' stories too (its index's predicate is exactly its own): it is read only
  // when the one before it held too few, and only its stories older than those are taken. Only
  // their ids and dates are read until the newest are known (a story's search vector is most of
  // its row: reading them for every match was most of a window's time on the embedded database).
  const tiers = windows.map(
    (window, i) => sql`${sql.raw(`tier_${i}`)} AS MATERIALIZED (
      SELECT a.id, a.published_at FROM articles a
       WHERE ${matching} AND a.published_at >= ${window.since}
         ${i > 0 ? sql`AND (SELECT count(*) FROM ${sql.raw(`tier_${i - 1}`)}) < ${RANKED_MATCHES}` : sql``}
    )`,
  );
  const fromTiers = windows.map((_, i) => {
    const newer = windows[i - 1];
    return sql`SELECT * FROM ${sql.raw(`tier_${i}`)}
                ${newer ? sql`WHERE published_at < ${newer.since}` : sql``}`;
  });
  // The site's window cuts the search short; a smaller one only while the site holds no larger.
  const olderBelow = last.cuts ? enough : RANKED_MATCHES;
  return sql`
    WITH ${sql.join(tiers, sql`, `)},
    recent AS MATERIALIZED (
      ${sql.join(fromTiers, sql` UNION ALL `)}
      ORDER BY published_at DESC, id DESC LIMIT ${RANKED_MATCHES}
    )
    SELECT ${columns} FROM articles a JOIN (
      SELECT * FROM recent
      UNION ALL
      (SELECT a.id, a.published_at FROM articles a
        WHERE ${matching} AND a.published_at < ${last.since}
          AND (SELECT count(*) FROM recent) < ${olderBelow}
        ORDER BY a.published_at DESC, a.id DESC LIMIT ${RANKED_MATCHES})
      ORDER BY published_at DESC, id DESC LIMIT ${RANKED_MATCHES}
    ) AS found ON found.id = a.id`;
}

/** The query as PostgreSQL reads it, folded to a constant so the planner sees its words. */
const tsQuery = (query: string) =>
  sql`websearch_to_tsquery(${sql.raw(`'${SEARCH_CONFIG}'`)}::regconfig, ${query.slice(0, MAX_QUERY_LENGTH)})`;

/**
 * A match's weight by its age: full today, half after three years. A title match outranks an
 * excerpt match of the same day for about five years, and among equals the newer comes first.
 */
const recency = (publishedAt: string) =>
  sql.raw(
    `(1 / (1 + greatest(0, extract(epoch FROM now() - ${publishedAt})) / (3 * 365.25 * 86400)))`,
  );

/**
 * Full-text search over articles and blog posts (PostgreSQL's `websearch_to_tsquery`, so quotes,
 * `or` and `-word` work as people expect, accents aside): best match first (a title match outranks
 * an excerpt match), weighed by age, among the newest RANKED_MATCHES matching articles of the
 * search window when it holds a page of them, else of all (newestMatches). Matched words are marked
 * in the title and excerpt. A query that matches nothing (on any page) is taken for a typo: the hits
 * are those of its words corrected (correctedQuery), which `near` names.
 */
export async function searchSite(
  db: Database,
  query: string,
  options: {
    page: number;
    pageSize?: number;
    /** Only stories older than this (the Older stories link). */
    before?: SearchCursor;
  },
): Promise<SearchPage> {
  const windows = await searchWindowsOf(db);
  const found = await searchFrom(db, query, options, windows);
  // A query that matches, though not on this page (past its last), is no typo: the headlines' words
  // that typos are corrected by do not hold every word an excerpt has.
  if (found.hits.length > 0 || found.total > 0) return found;
  // Nothing matches: a typo's corrected query is searched the same way.
  const near = await correctedQuery(db, query);
  const corrected = near ? await searchFrom(db, near, options, windows) : null;
  return near && corrected && corrected.total > 0 ? { ...corrected, near } : found;
}

interface PageRow extends HitRow {
  /** Articles ranked, and the oldest one's date and id: whether older stories may match too. */
  ranked: number | string;
  oldest_at: Date | string | null;
  oldest_id: string | null;
  in_window: number | string;
}

/** searchSite's one read of the hits, through the site's search windows. */
async function searchFrom(
  db: Database,
  query: string,
  options: { page: number; pageSize?: number; before?: SearchCursor },
  windows: SearchWindow[],
): Promise<SearchPage> {
  const pageSize = options.pageSize ?? SEARCH_PAGE_SIZE;
  const offset = (Math.max(1, options.page) - 1) * pageSize;
  const before = options.before ?? null;
  const newest = newestMatches(query, windows, pageSize, before);
  // The window that cuts a search short (newestMatches), when the site holds it.
  const largest = windows.at(-1);
  const cut = largest?.cuts ? largest.since : null;
  const config = sql.raw(`'${SEARCH_CONFIG}'::regconfig`);
  const result = await db.execute(sql`
    WITH q AS (SELECT ${tsQuery(query)} AS query),
    newest AS (${newest}),
    scored AS (
      SELECT a.*, ts_rank_cd(a.search, q.query) * ${recency("a.published_at")} AS rank
        FROM newest a, q
    ),
    ranked AS (
      SELECT a.*, max(a.rank) OVER (PARTITION BY coalesce(a.story_group, a.id)) AS group_rank
        FROM scored a
    ),
    hits AS (
      -- One card per story group (decision 032): its lead when the lead matches, else its
      -- best-ranked version; ranked as the group's best match.
      (SELECT DISTINCT ON (coalesce(a.story_group, a.id))
             'article' AS kind, a.id AS key, a.title, a.excerpt AS body, a.picture,
             NULL::text AS image, a.category,
             a.author, a.own, a.also_covered_by, a.published_at, a.group_rank AS rank
        FROM ranked a
       ORDER BY coalesce(a.story_group, a.id), a.group_lead DESC, a.rank DESC,
                a.published_at DESC, a.id)
      -- Blog posts are among the newest results; older stories' pages hold stories alone.
      ${before ? sql`` : sql`UNION ALL ${blogHits}`}
    ),
    page AS (
      SELECT *, count(*) OVER () AS total FROM hits
       ORDER BY rank DESC, published_at DESC NULLS LAST, key
       LIMIT ${pageSize} OFFSET ${offset}
    )
    SELECT page.kind, page.key, page.picture, page.image, page.category, page.author, page.own,
           page.also_covered_by, page.published_at,
           page.total,
           ts_headline(${config}, page.title, q.query, ${HEADLINE_OPTIONS}) AS title,
           ts_headline(${config}, page.body, q.query, ${HEADLINE_OPTIONS}) AS excerpt,
           (SELECT count(*) FROM newest) AS ranked,
           oldest.published_at AS oldest_at, oldest.id AS oldest_id,
           ${cut ? sql`(SELECT count(*) FROM newest WHERE published_at >= ${cut})` : sql`0`} AS in_window
      FROM page, q
      LEFT JOIN (SELECT published_at, id FROM newest
                  ORDER BY published_at, id LIMIT 1) AS oldest ON true
     ORDER BY page.rank DESC, page.published_at DESC NULLS LAST, page.key
  `);
  const rows = rowsOf<PageRow>(result);
  const first = rows[0];
  // Past the last page the window has no row to count on: ask for the count alone.
  if (first === undefined) {
    return { hits: [], total: offset > 0 ? await countHits(db, query, newest, before) : 0 };
  }
  return {
    hits: rows.map(toHit),
    total: Number(first.total),
    ...olderFrom(first, cut, pageSize),
  };
}

/**
 * Where older stories may match too, for the Older stories link: before the oldest ranked match
 * when RANKED_MATCHES were ranked, before the window when only its matches were (it held a page).
 */
function olderFrom(row: PageRow, cut: Date | null, enough: number): { older?: SearchCursor } {
  if (Number(row.ranked) >= RANKED_MATCHES && row.oldest_at !== null && row.oldest_id !== null) {
    return { older: { date: new Date(row.oldest_at), id: row.oldest_id } };
  }
  if (cut !== null && Number(row.in_window) >= enough) return { older: { date: cut, id: "" } };
  return {};
}

/** The blog posts matching `q.query`, as hits. */
const blogHits = sql`
      SELECT 'blog', b.slug, b.title, b.description, p.picture, b.image, NULL, NULL, false,
             NULL, b.published_at,
             ts_rank_cd(b.search, q.query) * coalesce(${recency("b.published_at")}, 1)
        FROM blog_posts b LEFT JOIN pictures p ON p.url = b.image, q
       WHERE b.search @@ q.query`;

function toHit(row: HitRow): SearchHit {
  const fields: HitFields = {
    title: splitHeadline(row.title),
    excerpt: splitHeadline(row.excerpt),
    picture: asArticlePicture(row.picture) ?? sitePicture(row.image),
    date: row.published_at === null ? null : new Date(row.published_at).toISOString(),
  };
  return row.kind === "article"
    ? {
        ...fields,
        kind: "article",
        id: row.key,
        category: row.category as CategoryKey,
        author: row.author ?? "Staff Writer",
        ...(row.own ? { own: true as const } : {}),
        ...(row.also_covered_by?.length ? { alsoCoveredBy: row.also_covered_by } : {}),
      }
    : { ...fields, kind: "blog", slug: row.key };
}

/**
 * The query with each word of 4 letters or more that no headline holds replaced by the closest word
 * one does (pg_trgm's similarity over search_words, 0.3 or closer; a swapped pair of letters comes
 * to about 0.4): what a reader who mistyped meant. Null when a word has nothing close, or when no
 * word changed. One probe of the small words table per word, whatever the number of stories.
 */
async function correctedQuery(db: Database, query: string): Promise<string | null> {
  const words = [
    ...new Set(query.slice(0, MAX_QUERY_LENGTH).match(/[\p{L}\p{N}]{4,}/gu) ?? []),
  ].slice(0, 8);
  if (words.length === 0) return null;
  const result = await db.execute(sql`
    SELECT q.word,
           EXISTS (SELECT 1 FROM search_words s WHERE s.word = lower(unaccent(q.word))) AS known,
           (SELECT s.word FROM search_words s
             WHERE s.word % lower(unaccent(q.word))
             ORDER BY similarity(s.word, lower(unaccent(q.word))) DESC, s.word
             LIMIT 1) AS near
      FROM unnest(${`{${words.map((w) => `"${w}"`).join(",")}}`}::text[]) AS q(word)`);
  const fixes = new Map<string, string>();
  for (const row of rowsOf<{ word: string; known: boolean; near: string | null }>(result)) {
    if (row.known) continue;
    if (row.near === null) return null;
    fixes.set(row.word, row.near);
  }
  if (fixes.size === 0) return null;
  return query.replace(/[\p{L}\p{N}]+/gu, (word) => fixes.get(word) ?? word);
}

async function countHits(
  db: Database,
  query: string,
  newest: SQL,
  before: SearchCursor | null,
): Promise<number> {
  const result = await db.execute(sql`
    WITH newest AS (${newest})
    SELECT (SELECT count(DISTINCT coalesce(story_group, id)) FROM newest)
         + ${before ? sql`0` : sql`(SELECT count(*) FROM blog_posts b WHERE b.search @@ ${tsQuery(query)})`} AS total
  `);
  return Number(rowsOf<{ total: number | string }>(result)[0]?.total ?? 0);
}
