import { createHash } from "node:crypto";
import { and, eq, inArray, or } from "drizzle-orm";
import { storyChangeKeys } from "../../shared/cache-keys";
import type { Database } from "../db/client";
import { articles } from "../db/schema";
import { SANITIZE_POLICY_VERSION } from "./sanitize";
import type { NormalizedArticle } from "./types";

/** The spec's limit: at most 15 newest items of a feed are stored per run. */
export const MAX_ITEMS_PER_FEED = 15;

export interface StoreResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Already stored from another feed (same link). */
  duplicates: number;
  /** What the caches in front must drop (shared/cache-keys.ts); empty when nothing changed. */
  purgeKeys: string[];
  /** The ids of the articles stored for the first time, which the pass then groups. */
  insertedIds: string[];
}

/** Newest first; undated items count as new now, as that is when they are first seen. */
export function newestItems(items: NormalizedArticle[], now: Date, limit = MAX_ITEMS_PER_FEED) {
  const time = (a: NormalizedArticle) => (a.date ?? now).getTime();
  return [...items].sort((a, b) => time(b) - time(a)).slice(0, limit);
}

/**
 * Two items of one feed that share a guid get the same id from normalisation; the later ones are
 * told apart by their link, deterministically.
 */
function disambiguateIds(items: NormalizedArticle[]): NormalizedArticle[] {
  const seenIds = new Set<string>();
  const seenLinks = new Set<string>();
  const result: NormalizedArticle[] = [];
  for (const item of items) {
    if (seenLinks.has(item.link)) continue;
    seenLinks.add(item.link);
    let id = item.id;
    if (seenIds.has(id)) {
      id = `${id}-${createHash("sha256").update(item.link).digest("hex").slice(0, 6)}`;
    }
    seenIds.add(id);
    result.push(id === item.id ? item : { ...item, id });
  }
  return result;
}

function changed(
  before: typeof articles.$inferSelect,
  after: NormalizedArticle,
  publishedAt: Date,
): boolean {
  return (
    (before.feedTitle ?? before.title) !== after.title ||
    before.excerpt !== after.excerpt ||
    before.content !== after.content ||
    before.image !== after.image ||
    before.author !== after.author ||
    before.link !== after.link ||
    before.category !== after.category ||
    before.publishedAt.getTime() !== publishedAt.getTime()
  );
}

/**
 * Stores one feed's items. The same item seen again (same feed and guid, or same link) is updated in
 * place, keeping its id and first-seen time and what staff decided (a take-down, a headline of
 * theirs, the default picture, pins and corrections); a link already stored from another feed is
 * kept once, and so is one of the newsroom's own stories, which no feed ever changes.
 * Run it inside a transaction so a feed's items land together or not at all.
 */
export async function storeArticles(
  db: Database,
  feedId: number,
  items: NormalizedArticle[],
  now: Date,
): Promise<StoreResult> {
  const result: StoreResult = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    duplicates: 0,
    purgeKeys: [],
    insertedIds: [],
  };
  const batch = disambiguateIds(items);
  if (batch.length === 0) return result;
  // Stories changed (each under its category before and after) and categories with new ones.
  const changedStories: { id: string; category: string }[] = [];
  const addedCategories: string[] = [];

  const existing = await db
    .select()
    .from(articles)
    .where(
      or(
        inArray(
          articles.id,
          batch.map((i) => i.id),
        ),
        inArray(
          articles.link,
          batch.map((i) => i.link),
        ),
      ),
    );
  const guids = batch.flatMap((i) => (i.guid ? [i.guid] : []));
  const uniqueGuids = guids.filter((g) => guids.indexOf(g) === guids.lastIndexOf(g));
  const sameGuid =
    uniqueGuids.length > 0
      ? await db
          .select()
          .from(articles)
          .where(and(eq(articles.feedId, feedId), inArray(articles.guid, uniqueGuids)))
      : [];
  const byId = new Map(existing.map((row) => [row.id, row]));
  const byLink = new Map(existing.map((row) => [row.link, row]));
  const byGuid = new Map(sameGuid.map((row) => [row.guid, row]));

  // New articles go in as one statement; updates (rarer) one by one.
  const inserts: (typeof articles.$inferInsert)[] = [];
  for (const item of batch) {
    const sameLink = byLink.get(item.link);
    // The same item seen again: same id, or (in this feed) the same guid, or the same link.
    const match =
      byId.get(item.id) ??
      (item.guid && uniqueGuids.includes(item.guid) ? byGuid.get(item.guid) : undefined) ??
      (sameLink?.feedId === feedId ? sameLink : undefined);
    if (match?.own) {
      result.duplicates++;
      continue;
    }
    if (!match) {
      if (sameLink) {
        result.duplicates++;
        continue;
      }
      inserts.push({
        id: item.id,
        feedId,
        category: item.category,
        guid: item.guid,
        link: item.link,
        title: item.title,
        excerpt: item.excerpt,
        content: item.content,
        sanitizePolicy: SANITIZE_POLICY_VERSION,
        image: item.image,
        author: item.author,
        publishedAt: item.date ?? now,
        firstSeenAt: now,
        updatedAt: now,
      });
      result.inserted++;
      result.insertedIds.push(item.id);
      addedCategories.push(item.category);
      continue;
    }
    // An undated item keeps the time it was first seen.
    const publishedAt = item.date ?? match.publishedAt;
    // A link taken by another stored article stays with it.
    const link = sameLink && sameLink.id !== match.id ? match.link : item.link;
    const next = { ...item, link };
    if (!changed(match, next, publishedAt)) {
      result.unchanged++;
      continue;
    }
    await db
      .update(articles)
      .set({
        feedId,
        category: item.category,
        guid: item.guid,
        link,
        // A headline staff overrode stays theirs; the feed's own is kept beside it.
        ...(match.feedTitle === null ? { title: item.title } : { feedTitle: item.title }),
        excerpt: item.excerpt,
        content: item.content,
        sanitizePolicy: SANITIZE_POLICY_VERSION,
        image: item.image,
        // Another picture address is shown as the default until the picture pass has it.
        ...(item.image === match.image ? {} : { picture: null }),
        // The picture pass lists the pictures of this version again.
        picturesListed: false,
        author: item.author,
        publishedAt,
        updatedAt: now,
      })
      .where(eq(articles.id, match.id));
    result.updated++;
    changedStories.push({ id: match.id, category: match.category });
    if (item.category !== match.category) addedCategories.push(item.category);
  }
  if (inserts.length > 0) await db.insert(articles).values(inserts);
  result.purgeKeys = storyChangeKeys(changedStories, addedCategories);
  return result;
}
