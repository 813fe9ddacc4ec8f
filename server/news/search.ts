import { asArticlePicture, sitePicture, type ArticlePicture } from "../../shared/picture";
import { sql } from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import type { Highlighted } from "../../shared/highlight";
import { rowsOf, type Database } from "../db/client";

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
    })
  | (HitFields & { kind: "blog"; slug: string });

export interface SearchPage {
  hits: SearchHit[];
  /** Matches in all pages. */
  total: number;
}

/** Splits a headline into plain and matched runs. */
export function splitHeadline(headline: string): Highlighted {
  const runs: Highlighted = [];
  let rest = headline;
  while (rest.length > 0) {
    const start = rest.indexOf(MATCH_START);
    if (start === -1) {
      runs.push({ text: rest, match: false });
      break;
    }
    if (start > 0) runs.push({ text: rest.slice(0, start), match: false });
    const end = rest.indexOf(MATCH_END, start);
    const stop = end === -1 ? rest.length : end;
    runs.push({ text: rest.slice(start + 1, stop), match: true });
    rest = rest.slice(stop + 1);
  }
  return runs.filter((run) => run.text.length > 0);
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
  published_at: Date | string | null;
  total: number | string;
}

/**
 * Full-text search over articles and blog posts (PostgreSQL's `websearch_to_tsquery`, so quotes,
 * `or` and `-word` work as people expect): best match first (a title match outranks an excerpt
 * match), then newest. Matched words are marked in the title and excerpt.
 */
export async function searchSite(
  db: Database,
  query: string,
  options: { page: number; pageSize?: number },
): Promise<SearchPage> {
  const pageSize = options.pageSize ?? SEARCH_PAGE_SIZE;
  const offset = (Math.max(1, options.page) - 1) * pageSize;
  const result = await db.execute(sql`
    WITH q AS (SELECT websearch_to_tsquery('english', ${query.slice(0, MAX_QUERY_LENGTH)}) AS query),
    hits AS (
      SELECT 'article' AS kind, a.id AS key, a.title, a.excerpt AS body, a.picture,
             NULL::text AS image, a.category,
             a.author, a.own, a.published_at, ts_rank_cd(a.search, q.query) AS rank
        FROM articles a, q WHERE a.search @@ q.query AND a.taken_down_at IS NULL
      UNION ALL
      SELECT 'blog', b.slug, b.title, b.description, p.picture, b.image, NULL, NULL, false,
             b.published_at,
             ts_rank_cd(b.search, q.query)
        FROM blog_posts b LEFT JOIN pictures p ON p.url = b.image, q WHERE b.search @@ q.query
    ),
    page AS (
      SELECT *, count(*) OVER () AS total FROM hits
       ORDER BY rank DESC, published_at DESC NULLS LAST, key
       LIMIT ${pageSize} OFFSET ${offset}
    )
    SELECT page.kind, page.key, page.picture, page.image, page.category, page.author, page.own,
           page.published_at,
           page.total,
           ts_headline('english', page.title, q.query, ${HEADLINE_OPTIONS}) AS title,
           ts_headline('english', page.body, q.query, ${HEADLINE_OPTIONS}) AS excerpt
      FROM page, q
     ORDER BY page.rank DESC, page.published_at DESC NULLS LAST, page.key
  `);
  const rows = rowsOf<HitRow>(result);
  const hits = rows.map((row): SearchHit => {
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
        }
      : { ...fields, kind: "blog", slug: row.key };
  });
  // Past the last page the window has no row to count on: ask for the count alone.
  const total =
    rows[0] !== undefined ? Number(rows[0].total) : offset > 0 ? await countHits(db, query) : 0;
  return { hits, total };
}

async function countHits(db: Database, query: string): Promise<number> {
  const result = await db.execute(sql`
    WITH q AS (SELECT websearch_to_tsquery('english', ${query.slice(0, MAX_QUERY_LENGTH)}) AS query)
    SELECT (SELECT count(*) FROM articles a, q
             WHERE a.search @@ q.query AND a.taken_down_at IS NULL)
         + (SELECT count(*) FROM blog_posts b, q WHERE b.search @@ q.query) AS total
  `);
  return Number(rowsOf<{ total: number | string }>(result)[0]?.total ?? 0);
}
