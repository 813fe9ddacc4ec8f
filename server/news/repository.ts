import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import type { Article, ArticleWithBody, OwnStoryDetails, StoryVersion } from "../../shared/article";
import type { ListCursor } from "../../shared/list-cursor";
import type { CategoryKey } from "../../shared/categories";
import { MAX_PINS } from "../../shared/newsroom";
import { asArticlePicture, type ArticlePicture } from "../../shared/picture";
import { rowsOf, type Database } from "../db/client";
import {
  archiveCounts,
  articlePictures,
  articles,
  corrections,
  feeds,
  newsroomMedia,
  newsroomPosts,
  pictures,
  storyPins,
} from "../db/schema";
import { bodyPictureUrls, withOwnPictures } from "../images/body";
import { pictureHashOf } from "../newsroom/post-body";
import { remembered } from "./read-cache";
import { withVideoPlayers } from "./video-players";
import { sourceName } from "../../shared/source-name";

export type ArticleRow = typeof articles.$inferSelect;
export type NewArticle = typeof articles.$inferInsert;
export type FeedRow = typeof feeds.$inferSelect;
export type { Article };

/**
 * Stories on the site (not taken down). Every public read says so in these words, which are also
 * the condition of the date indexes, so the planner walks those and skips nothing.
 */
export const LIVE = isNull(articles.takenDownAt);
const LIVE_SQL = sql.raw("taken_down_at IS NULL");

const articleFields = {
  id: articles.id,
  title: articles.title,
  excerpt: articles.excerpt,
  picture: articles.picture,
  category: articles.category,
  publishedAt: articles.publishedAt,
  author: articles.author,
  link: articles.link,
  own: articles.own,
  storyGroup: articles.storyGroup,
  alsoCoveredBy: articles.alsoCoveredBy,
};

interface ArticleFields {
  id: string;
  title: string;
  excerpt: string;
  picture: unknown;
  category: string;
  publishedAt: Date;
  author: string;
  link: string;
  own: boolean;
  storyGroup: string | null;
  alsoCoveredBy: string[] | null;
}

function toArticle(row: ArticleFields): Article {
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    picture: asArticlePicture(row.picture),
    category: row.category as CategoryKey,
    date: row.publishedAt.toISOString(),
    author: row.author,
    link: row.link,
    ...(row.own ? { own: true as const } : {}),
    ...(row.storyGroup ? { group: row.storyGroup } : {}),
    ...(row.alsoCoveredBy?.length ? { alsoCoveredBy: row.alsoCoveredBy } : {}),
  };
}

/**
 * One card per story group (decision 032): lists of every category show each group's lead, lists of
 * one category the group's first version in it. Alone, a story leads both.
 */
const leadsOf = (category: CategoryKey | undefined) =>
  category ? articles.categoryLead : articles.groupLead;

/** A list merged from several lists, with the first card of each story group only. */
export function oneCardPerGroup(list: Article[]): Article[] {
  const seen = new Set<string>();
  return list.filter((article) => {
    if (article.group === undefined) return true;
    if (seen.has(article.group)) return false;
    seen.add(article.group);
    return true;
  });
}

/** Newest first; optionally one category. */
async function readLatestArticles(
  db: Database,
  options: { category?: CategoryKey; limit: number; excludeId?: string; excludeGroup?: string },
): Promise<Article[]> {
  const conditions = [
    LIVE,
    options.category ? eq(articles.category, options.category) : undefined,
    leadsOf(options.category),
    options.excludeId ? ne(articles.id, options.excludeId) : undefined,
    options.excludeGroup
      ? sql`${articles.storyGroup} IS DISTINCT FROM ${options.excludeGroup}`
      : undefined,
  ];
  const rows = await db
    .select(articleFields)
    .from(articles)
    .where(and(...conditions))
    .orderBy(desc(articles.publishedAt), articles.id)
    .limit(options.limit);
  return rows.map(toArticle);
}
export const latestArticles = remembered("latestArticles", readLatestArticles);

/**
 * The newsroom's uploads an own story's body shows, by the path it names them with. (Its body
 * keeps only such paths: server/newsroom/post-body.ts.) One no longer in the library is left out.
 */
export async function uploadsNamedIn(
  db: Database,
  content: string,
): Promise<Map<string, ArticlePicture>> {
  const hashOf = new Map(
    bodyPictureUrls(content).flatMap((path) => {
      const hash = pictureHashOf(path);
      return hash ? [[path, hash] as const] : [];
    }),
  );
  if (hashOf.size === 0) return new Map();
  const uploads = await db
    .select({
      hash: newsroomMedia.hash,
      width: newsroomMedia.width,
      height: newsroomMedia.height,
      color: newsroomMedia.color,
    })
    .from(newsroomMedia)
    .where(inArray(newsroomMedia.hash, [...new Set(hashOf.values())]));
  const byHash = new Map(uploads.map((u) => [u.hash, u]));
  return new Map(
    [...hashOf].flatMap(([path, hash]) => {
      const picture = asArticlePicture({ kind: "stored", ...byHash.get(hash) });
      return picture ? [[path, picture] as const] : [];
    }),
  );
}

/** The dek of an own story as it was published (lists show it as the excerpt). */
async function ownStoryDek(db: Database, articleId: string): Promise<string> {
  const [post] = await db
    .select({ dek: sql<string | null>`${newsroomPosts.live}->>'dek'` })
    .from(newsroomPosts)
    .where(eq(newsroomPosts.articleId, articleId))
    .limit(1);
  return post?.dek ?? "";
}

/**
 * An article with its body as pages show it: the pictures in it drawn from our own copies, those we
 * do not keep left out (server/images/body.ts). A feed story's are the ones the picture pass kept;
 * an own story's are the newsroom's uploads its body names by path, and its page has its words.
 */
async function readArticleById(db: Database, id: string): Promise<ArticleWithBody | undefined> {
  const [row] = await db
    .select({
      ...articleFields,
      image: articles.image,
      content: articles.content,
      bylines: articles.bylines,
      pictureAlt: articles.pictureAlt,
      pictureCredit: articles.pictureCredit,
    })
    .from(articles)
    .where(and(eq(articles.id, id), LIVE))
    .limit(1);
  if (!row) return undefined;
  if (row.own) {
    const [byPath, dek] = await Promise.all([uploadsNamedIn(db, row.content), ownStoryDek(db, id)]);
    const content = withVideoPlayers(withOwnPictures(row.content, byPath, null));
    const ownStory: OwnStoryDetails = {
      bylines: row.bylines ?? [],
      dek,
      pictureAlt: row.pictureAlt,
      pictureCredit: row.pictureCredit,
    };
    return { ...toArticle(row), content, ownStory };
  }
  const kept = row.content.includes("<img")
    ? await db
        .select({ url: pictures.url, picture: pictures.picture })
        .from(articlePictures)
        .innerJoin(pictures, eq(pictures.url, articlePictures.url))
        .where(and(eq(articlePictures.articleId, id), isNotNull(pictures.picture)))
    : [];
  const byUrl = new Map(
    kept.flatMap(({ url, picture }) => {
      const checked = asArticlePicture(picture);
      return checked ? [[url, checked] as const] : [];
    }),
  );
  return { ...toArticle(row), content: withOwnPictures(row.content, byUrl, row.image) };
}
export const articleById = remembered("articleById", readArticleById);

/** The other versions of `group` on the site, the oldest first, never `exceptId`. */
async function readOtherVersions(
  db: Database,
  group: string,
  exceptId: string,
): Promise<StoryVersion[]> {
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      link: articles.link,
      at: articles.publishedAt,
    })
    .from(articles)
    .where(and(eq(articles.storyGroup, group), ne(articles.id, exceptId), LIVE))
    .orderBy(asc(articles.publishedAt), asc(articles.id))
    .limit(20);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    source: sourceName(row.link),
    date: row.at.toISOString(),
  }));
}
export const otherVersions = remembered("otherVersions", readOtherVersions);

/** Whether staff took the story down (its address answers 410 Gone rather than 404). */
export async function isTakenDown(db: Database, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.id, id), isNotNull(articles.takenDownAt)))
    .limit(1);
  return row !== undefined;
}

export interface Correction {
  id: number;
  text: string;
  /** ISO 8601. */
  date: string;
}

/** A story's corrections, newest first. */
async function readCorrectionsOf(db: Database, articleId: string): Promise<Correction[]> {
  const rows = await db
    .select({ id: corrections.id, text: corrections.text, date: corrections.publishedAt })
    .from(corrections)
    .where(eq(corrections.articleId, articleId))
    .orderBy(desc(corrections.publishedAt), desc(corrections.id));
  return rows.map((r) => ({ ...r, date: r.date.toISOString() }));
}
export const correctionsOf = remembered("correctionsOf", readCorrectionsOf);

/** The corrections of stories on the site, newest first, with their story's headline. */
async function readLatestCorrections(
  db: Database,
  limit: number,
): Promise<(Correction & { article: { id: string; title: string } })[]> {
  const rows = await db
    .select({
      id: corrections.id,
      text: corrections.text,
      date: corrections.publishedAt,
      articleId: articles.id,
      title: articles.title,
    })
    .from(corrections)
    .innerJoin(articles, eq(articles.id, corrections.articleId))
    .where(LIVE)
    .orderBy(desc(corrections.publishedAt), desc(corrections.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    text: r.text,
    date: r.date.toISOString(),
    article: { id: r.articleId, title: r.title },
  }));
}
export const latestCorrections = remembered("latestCorrections", readLatestCorrections);

export async function countArticles(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(articles);
  return row?.n ?? 0;
}

/** Inserts or updates by id (for tests and tools); the first-seen time of an existing article never changes. */
export async function upsertArticle(db: Database, article: NewArticle): Promise<void> {
  const { firstSeenAt: _firstSeen, id: _id, ...changes } = article;
  await db
    .insert(articles)
    .values(article)
    .onConflictDoUpdate({
      target: articles.id,
      set: { ...changes, updatedAt: sql`now()` },
    });
}

/** Registers a feed (or moves it to another category) and returns its row. */
/**
 * Registers the configured feeds in one statement (a feed's category follows the configuration) and
 * pairs each source with its row, in the order given; a URL listed twice is registered once.
 */
export async function ensureFeeds<Source extends { url: string; category: CategoryKey }>(
  db: Database,
  sources: readonly Source[],
): Promise<{ source: Source; feed: FeedRow }[]> {
  if (sources.length === 0) return [];
  const unique = [...new Map(sources.map((s) => [s.url, s])).values()];
  const rows = await db
    .insert(feeds)
    .values(unique.map(({ url, category }) => ({ url, category })))
    .onConflictDoUpdate({ target: feeds.url, set: { category: sql`excluded.category` } })
    .returning();
  const byUrl = new Map(rows.map((row) => [row.url, row]));
  return sources.map((source) => {
    const feed = byUrl.get(source.url);
    if (!feed) throw new Error(`Could not register the feed ${source.url}`);
    return { source, feed };
  });
}

export async function listFeeds(db: Database): Promise<FeedRow[]> {
  return db.select().from(feeds).orderBy(feeds.category, feeds.url);
}

/** archive_counts' rows for every category together (migration 0019). */
const EVERY_CATEGORY = "";

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
  const from = sql`make_timestamptz(${options.year}, 1, 1, 0, 0, 0, 'America/Los_Angeles')`;
  const to = sql`make_timestamptz(${options.year + 1}, 1, 1, 0, 0, 0, 'America/Los_Angeles')`;
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

/**
 * The newest `perCategory` articles of each category, in one query (one index walk per category),
 * as lists in the order the categories were given; with `overall`, also that many of the newest
 * articles of any category, in the same query (a round trip to the database costs more than the
 * index walk).
 */
export async function newestOfEach(
  db: Database,
  categories: readonly CategoryKey[],
  perCategory: number,
  overall = 0,
): Promise<{ overall: Article[]; lists: Article[][] }> {
  const columns = sql`id, title, excerpt, picture, category, published_at, author, link, own,
    story_group, also_covered_by`;
  const newestOverall =
    overall > 0
      ? sql`(SELECT ${columns}, 0::bigint AS position FROM ${articles} WHERE ${LIVE_SQL} AND group_lead
              ORDER BY ${articles.publishedAt} DESC, ${articles.id} LIMIT ${overall})
            UNION ALL`
      : sql``;
  const result = await db.execute(sql`
    ${newestOverall}
    (SELECT ${columns}, position
       FROM unnest(${`{${categories.join(",")}}`}::text[])
            WITH ORDINALITY AS c(wanted, position)
      CROSS JOIN LATERAL (
        SELECT * FROM ${articles}
         WHERE ${articles.category} = c.wanted AND ${LIVE_SQL} AND category_lead
         ORDER BY ${articles.publishedAt} DESC, ${articles.id} LIMIT ${perCategory}
      ) a)
     ORDER BY position, published_at DESC, id`);
  // Position 0 is the newest overall, 1… the categories in the order given.
  const lists = [...categories, null].map((): Article[] => []);
  for (const row of rowsOf<{
    id: string;
    title: string;
    excerpt: string;
    picture: unknown;
    category: string;
    published_at: Date | string;
    author: string;
    link: string;
    own: boolean;
    story_group: string | null;
    also_covered_by: string[] | null;
    position: number | string;
  }>(result)) {
    lists[Number(row.position)]?.push(
      toArticle({
        ...row,
        publishedAt: new Date(row.published_at),
        storyGroup: row.story_group,
        alsoCoveredBy: row.also_covered_by,
      }),
    );
  }
  const [newest = [], ...byCategory] = lists;
  return { overall: newest, lists: byCategory };
}

/** Several categories' newest articles: `perCategory` of each, newest first overall. */
export async function newestPerCategory(
  db: Database,
  categories: readonly CategoryKey[],
  perCategory: number,
): Promise<Article[]> {
  return oneCardPerGroup(
    newestFirst((await newestOfEach(db, categories, perCategory)).lists.flat()),
  );
}

const newestFirst = (list: Article[]) =>
  list.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));

/** The spec's featured categories, whose first 2 articles each make the featured list. */
const FEATURED_CATEGORIES = ["local-news", "national-news", "world-news"] as const;
/** The spec's recent list: 3 each of these, newest first (the featured categories come first). */
const RECENT_CATEGORIES = [...FEATURED_CATEGORIES, "business", "technology"] as const;

/** How many of the newest articles the home page lists as today's headlines. */
const HEADLINES = 5;

/** The stories staff pinned, in their order, until each pin expires. */
async function pinnedArticles(db: Database, now: Date): Promise<Article[]> {
  // The pins first (at most MAX_PINS are live), then each one's story by its key.
  const pins = db
    .select({ articleId: storyPins.articleId, position: storyPins.position })
    .from(storyPins)
    .where(gt(storyPins.expiresAt, now))
    .orderBy(asc(storyPins.position), asc(storyPins.articleId))
    .limit(MAX_PINS)
    .as("pins");
  const rows = await db
    .select(articleFields)
    .from(pins)
    .innerJoin(articles, eq(articles.id, pins.articleId))
    .where(LIVE)
    .orderBy(asc(pins.position), asc(pins.articleId));
  return rows.map(toArticle);
}

/** The pinned stories first, in their order, then the list's own without them, cut to `length`. */
function pinnedFirst(pinned: Article[], list: Article[], length: number): Article[] {
  const ids = new Set(pinned.map((a) => a.id));
  return [...pinned, ...list.filter((a) => !ids.has(a.id))].slice(0, length);
}

/**
 * The home page's lists, from one query (and one for the pins): today's headlines (the 5 newest of
 * any category), the spec's featured list for the slider (the first 2 of Local, National and World
 * News) and its recent list (3 each of Local, National, World, Business and Technology, newest
 * first). Pinned stories lead the headlines and the slider, in their order.
 */
async function readHomeLists(
  db: Database,
): Promise<{ headlines: Article[]; featured: Article[]; recent: Article[] }> {
  const [{ overall, lists }, pinned] = await Promise.all([
    newestOfEach(db, RECENT_CATEGORIES, 3, HEADLINES),
    pinnedArticles(db, new Date()),
  ]);
  const newestFeatured = lists
    .slice(0, FEATURED_CATEGORIES.length)
    .flatMap((list) => list.slice(0, 2));
  // A headline that is also in a list is the same object, so the page's data sends it once.
  const listed = new Map([...pinned, ...lists.flat()].map((article) => [article.id, article]));
  const headlines = pinnedFirst(
    pinned,
    overall.map((article) => listed.get(article.id) ?? article),
    HEADLINES,
  );
  const featured = oneCardPerGroup(
    pinnedFirst(pinned, newestFeatured, Math.max(newestFeatured.length, pinned.length)),
  );
  return { headlines, featured, recent: oneCardPerGroup(newestFirst(lists.flat())) };
}
export const homeLists = remembered("homeLists", readHomeLists);

/**
 * Up to 3 other articles of the same category, newest first, never the article itself nor another
 * version of its story (the page lists those apart).
 */
export function relatedArticles(db: Database, article: Article): Promise<Article[]> {
  return latestArticles(db, {
    category: article.category,
    limit: 3,
    excludeId: article.id,
    ...(article.group ? { excludeGroup: article.group } : {}),
  });
}
