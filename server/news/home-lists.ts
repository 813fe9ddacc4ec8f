import { asc, eq, gt, sql } from "drizzle-orm";
import type { Article } from "../../shared/article";
import type { CategoryKey } from "../../shared/categories";
import { MAX_PINS } from "../../shared/newsroom";
import { rowsOf, type Database } from "../db/client";
import { articles, storyPins } from "../db/schema";
import { remembered } from "./read-cache";
import { articleFields, LIVE, LIVE_SQL, oneCardPerGroup, toArticle } from "./repository";

/**
 * The newest `perCategory` articles of each category, in one query (one index walk per category),
 * as lists in the order the categories were given; with `overall`, also that many of the newest
 * articles of any category, in the same query (a round trip to the database costs more than the
 * index walk).
 */
async function newestOfEach(
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
