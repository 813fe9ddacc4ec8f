import {
  and,
  asc,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  max,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import type { CategoryKey } from "../../shared/categories";
import type { StoryStatus } from "../../shared/newsroom";
import { asArticlePicture, type ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import { articles, corrections, feeds, pictures, staffAudit, storyPins } from "../db/schema";
import { LIVE } from "../news/repository";
import { MAX_QUERY_LENGTH, searchSite } from "../news/search";
import { storyCorrections, type RetractedCorrection, type StoryCorrection } from "./corrections";
import { hasControl, tidy } from "./text";

/** What the newsroom's story screens read: the list (with readers' search) and one story. */

export const STORIES_PAGE_SIZE = 30;

/**
 * How many of readers' search results the newsroom's search considers: far more than anyone pages
 * through, and a bound on the work of one request.
 */
const SEARCH_CANDIDATES = 200;

export interface StoryListItem {
  id: string;
  title: string;
  feedTitle: string | null;
  category: CategoryKey;
  publishedAt: string;
  down: boolean;
  /** The picture readers see (null: the default one). */
  picture: ArticlePicture | null;
  /** "View on site": an address no cache has an older copy of; null while the story is down. */
  siteLink: string | null;
}

/**
 * A story's address on the site for staff to open. Browsers and shared caches keep a page for
 * `max-age` and our page cache keys on the whole address, so the address names the story's last
 * change: a new change, a new address, never an older copy. The page's canonical link has no query.
 */
export function siteLink(id: string, changedAt: Date): string {
  return `/article/${encodeURIComponent(id)}?v=${changedAt.getTime()}`;
}

/**
 * When each story last changed: the feed's last update (`updated_at`) or staff's last action on it
 * (its newest audit entry), whichever is later.
 */
async function lastChanges(
  db: Database,
  stories: readonly { id: string; updatedAt: Date }[],
): Promise<Map<string, Date>> {
  const ids = stories.map((s) => s.id);
  const byStaff =
    ids.length === 0
      ? []
      : await db
          .select({ id: staffAudit.subject, at: max(staffAudit.createdAt) })
          .from(staffAudit)
          .where(inArray(staffAudit.subject, ids))
          .groupBy(staffAudit.subject);
  const staffAt = new Map(byStaff.map((row) => [row.id, row.at]));
  return new Map(
    stories.map((s) => {
      const staff = staffAt.get(s.id);
      return [s.id, staff && staff > s.updatedAt ? staff : s.updatedAt];
    }),
  );
}

/** Escapes LIKE's wildcards, so staff's search is plain text. */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The stories a newsroom search finds, in this order: those readers' search finds (the same
 * full-text query, best match first), then stories whose headline holds the text (taken-down
 * ones too, which readers' search never shows), and the story with that id or link.
 */
async function matching(
  db: Database,
  query: string,
): Promise<{ condition: SQL | undefined; order: SQL | undefined }> {
  const found = await searchSite(db, query, { page: 1, pageSize: SEARCH_CANDIDATES });
  const ids = found.hits.flatMap((hit) => (hit.kind === "article" ? [hit.id] : []));
  const condition = or(
    ids.length > 0 ? inArray(articles.id, ids) : undefined,
    ilike(articles.title, likeText(query)),
    ilike(articles.feedTitle, likeText(query)),
    eq(articles.id, query),
    eq(articles.link, query),
  );
  const order =
    ids.length > 0
      ? sql`CASE ${articles.id} ${sql.join(
          ids.map((id, rank) => sql`WHEN ${id} THEN ${rank}`),
          sql` `,
        )} ELSE ${ids.length} END`
      : undefined;
  return { condition, order };
}

export async function listStories(
  db: Database,
  options: { query: string; category: CategoryKey | null; status: StoryStatus; page: number },
): Promise<{ stories: StoryListItem[]; total: number; query: string }> {
  // As readers' search does: control characters (a NUL among them) are never words.
  const query = tidy(options.query).slice(0, MAX_QUERY_LENGTH);
  const statusCondition: Record<StoryStatus, SQL | undefined> = {
    all: undefined,
    live: LIVE,
    down: isNotNull(articles.takenDownAt),
    pinned: sql`EXISTS (SELECT 1 FROM ${storyPins} WHERE ${storyPins.articleId} = ${articles.id} AND ${storyPins.expiresAt} > now())`,
    corrected: sql`EXISTS (SELECT 1 FROM ${corrections} WHERE ${corrections.articleId} = ${articles.id})`,
    edited: or(isNotNull(articles.feedTitle), eq(articles.defaultPicture, true)),
  };
  const search = query ? await matching(db, query) : { condition: undefined, order: undefined };
  const where = and(
    statusCondition[options.status],
    options.category ? eq(articles.category, options.category) : undefined,
    search.condition,
  );
  const newestFirst = [desc(articles.publishedAt), asc(articles.id)];
  const [rows, total] = await Promise.all([
    db
      .select({
        id: articles.id,
        title: articles.title,
        feedTitle: articles.feedTitle,
        category: articles.category,
        publishedAt: articles.publishedAt,
        updatedAt: articles.updatedAt,
        takenDownAt: articles.takenDownAt,
        picture: articles.picture,
      })
      .from(articles)
      .where(where)
      .orderBy(...(search.order ? [search.order, ...newestFirst] : newestFirst))
      .limit(STORIES_PAGE_SIZE)
      .offset((Math.max(1, options.page) - 1) * STORIES_PAGE_SIZE),
    db.$count(articles, where),
  ]);
  const changed = await lastChanges(db, rows);
  return {
    stories: rows.map((r) => ({
      id: r.id,
      title: r.title,
      feedTitle: r.feedTitle,
      category: r.category as CategoryKey,
      publishedAt: r.publishedAt.toISOString(),
      down: r.takenDownAt !== null,
      picture: asArticlePicture(r.picture),
      siteLink: r.takenDownAt === null ? siteLink(r.id, changed.get(r.id) ?? r.updatedAt) : null,
    })),
    total,
    /** The search as it was run. */
    query,
  };
}

export interface StoryDetail {
  id: string;
  title: string;
  /** The feed's headline when staff overrode it. */
  feedTitle: string | null;
  excerpt: string;
  author: string;
  link: string;
  category: CategoryKey;
  feedUrl: string | null;
  publishedAt: string;
  /** The feed's picture address, if it gave one. */
  image: string | null;
  /** The feed's picture as we keep it (whichever the story shows); null until fetched, or none. */
  feedPicture: ArticlePicture | null;
  defaultPicture: boolean;
  takenDown: { at: string; reason: string } | null;
  pin: { position: number; expiresAt: string } | null;
  corrections: StoryCorrection[];
  retractedCorrections: RetractedCorrection[];
  /** See `siteLink`; null while the story is down. */
  siteLink: string | null;
}

export async function storyDetail(
  db: Database,
  id: string,
  now = new Date(),
): Promise<StoryDetail | undefined> {
  // No stored id holds a control character, and PostgreSQL refuses a NUL in a query.
  if (hasControl(id)) return undefined;
  const [row] = await db
    .select({ story: articles, feedUrl: feeds.url })
    .from(articles)
    .leftJoin(feeds, eq(feeds.id, articles.feedId))
    .where(eq(articles.id, id))
    .limit(1);
  if (!row) return undefined;
  const { story } = row;
  const [pinRows, correctionLists, keptRows, changed] = await Promise.all([
    db
      .select()
      .from(storyPins)
      .where(and(eq(storyPins.articleId, id), gt(storyPins.expiresAt, now))),
    storyCorrections(db, id),
    story.image
      ? db
          .select({ picture: pictures.picture })
          .from(pictures)
          .where(eq(pictures.url, story.image))
          .limit(1)
      : Promise.resolve([]),
    lastChanges(db, [story]),
  ]);
  const pinRow = pinRows[0];
  return {
    id: story.id,
    title: story.title,
    feedTitle: story.feedTitle,
    excerpt: story.excerpt,
    author: story.author,
    link: story.link,
    category: story.category as CategoryKey,
    feedUrl: row.feedUrl,
    publishedAt: story.publishedAt.toISOString(),
    image: story.image,
    feedPicture: asArticlePicture(keptRows[0]?.picture),
    defaultPicture: story.defaultPicture,
    takenDown: story.takenDownAt
      ? { at: story.takenDownAt.toISOString(), reason: story.takedownReason ?? "" }
      : null,
    pin: pinRow ? { position: pinRow.position, expiresAt: pinRow.expiresAt.toISOString() } : null,
    corrections: correctionLists.shown,
    retractedCorrections: correctionLists.retracted,
    siteLink: story.takenDownAt
      ? null
      : siteLink(story.id, changed.get(story.id) ?? story.updatedAt),
  };
}
