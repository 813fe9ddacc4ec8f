import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Article, ArticleWithBody, OwnStoryDetails, StoryVersion } from "../../shared/article";
import type { CategoryKey } from "../../shared/categories";
import { asArticlePicture, type ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import {
  articlePictures,
  articles,
  corrections,
  feeds,
  newsroomMedia,
  newsroomPosts,
  pictures,
} from "../db/schema";
import { bodyPictureUrls, withOwnPictures } from "../images/body";
import { pictureHashOf } from "../newsroom/post-body";
import { remembered } from "./read-cache";
import { withVideoPlayers } from "./video-players";
import { sourceName } from "../../shared/source-name";

export type NewArticle = typeof articles.$inferInsert;
export type FeedRow = typeof feeds.$inferSelect;
export type { Article };

/**
 * Stories on the site (not taken down). Every public read says so in these words, which are also
 * the condition of the date indexes, so the planner walks those and skips nothing.
 */
export const LIVE = isNull(articles.takenDownAt);
export const LIVE_SQL = sql.raw("taken_down_at IS NULL");

export const articleFields = {
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

/** A row of `articleFields`, its picture still to be checked (raw SQL reads it too). */
type ArticleFields = Omit<
  Pick<typeof articles.$inferSelect, keyof typeof articleFields>,
  "picture"
> & { picture: unknown };

export function toArticle(row: ArticleFields): Article {
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
export const leadsOf = (category: CategoryKey | undefined) =>
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

/** A story's corrections, newest first, read afresh (the newsroom's story page reads so). */
export async function readCorrectionsOf(db: Database, articleId: string): Promise<Correction[]> {
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
      article: { id: articles.id, title: articles.title },
    })
    .from(corrections)
    .innerJoin(articles, eq(articles.id, corrections.articleId))
    .where(LIVE)
    .orderBy(desc(corrections.publishedAt), desc(corrections.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, date: r.date.toISOString() }));
}
export const latestCorrections = remembered("latestCorrections", readLatestCorrections);

export async function countArticles(db: Database): Promise<number> {
  return db.$count(articles);
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
