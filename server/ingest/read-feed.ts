import { eq, inArray } from "drizzle-orm";
import type { DatabaseHandle } from "../db/client";
import { feeds } from "../db/schema";
import { nextAttemptAfterFailure } from "../lib/backoff";
import { DEFAULT_FETCH_OPTIONS } from "../lib/fetch";
import { blockingRule, type BlockRule } from "../newsroom/block-rules";
import type { FeedRow } from "../news/repository";
import { decodeFeedBytes } from "./encoding";
import { FeedParseError, readFeedDocument } from "./feed-document";
import type { FeedSource } from "./feeds-config";
import { fetchFeed, isLocalSource, type FetchResult } from "./fetch";
import type { FeedOutcome, FeedReport, IngestOptions } from "./ingest";
import { normalizeItem } from "./normalize";
import { feedFromDocument } from "./parse";
import { DEAD_AFTER_FAILURES, nextAttemptAfterSuccess } from "./schedule";
import { newestItems, storeArticles, type StoreResult } from "./store";
import type { NormalizedArticle } from "./types";

/**
 * Reading one feed in an ingest pass (ingest.ts): fetch it, turn its body into articles, and store
 * them with the feed's state in one transaction, or record why not. Never throws.
 */

export function userAgent(siteUrl: string, siteName: string): string {
  return `${siteName.replace(/[^\w .-]/g, "")} feed reader (+${siteUrl})`;
}

/**
 * Turns a fetched body into normalised articles, step by step: decode the bytes, read the XML, map the
 * feed's items, normalise each (an item without a usable link is dropped). Keeping the newest is the
 * caller's step (`newestItems`): `news parse` prints them all.
 */
export function articlesFromBody(
  result: Extract<FetchResult, { kind: "ok" }>,
  source: FeedSource,
  siteUrl: string,
): {
  items: NormalizedArticle[];
  title: string | null;
  ttlMinutes: number | null;
  damaged: boolean;
} {
  // A feed read from a file (the bundled samples) has no address: its relative links resolve against its
  // own xml:base, else against ours, never against its channel link (a fictional publisher's).
  const local = isLocalSource(source.url);
  const text = decodeFeedBytes(result.body, result.contentType);
  const document = readFeedDocument(text);
  const feed = feedFromDocument(document, { channelLinkAsBase: !local });
  const context = {
    feedUrl: source.url,
    category: source.category,
    baseUrl: local ? `${siteUrl}/` : result.finalUrl,
  };
  const items = feed.items.flatMap((item) => normalizeItem(item, context) ?? []);
  return { items, title: feed.title, ttlMinutes: feed.ttlMinutes, damaged: feed.damaged };
}

/** The log line of each outcome of reading a feed (the line also carries `outcome`). */
export const FEED_LOG = {
  stored: "feed stored",
  "no-items": "feed parsed with no items",
  "fetch-failed": "feed fetch failed",
  "not-a-feed": "feed answered with something that is not a feed",
  "store-failed": "feed could not be stored",
} as const;

/** A feed that answered 304: its state changes only in when it was seen and is next due. */
export interface NotModified {
  feedId: number;
  nextAttemptAt: Date;
}

/**
 * Records the 304s of a pass in one statement per distinct next attempt (usually one), so a pass
 * where nothing changed costs a few writes, not one per feed.
 */
export async function recordNotModified(database: DatabaseHandle, seen: NotModified[], now: Date) {
  const byNextAttempt = new Map<number, number[]>();
  for (const { feedId, nextAttemptAt } of seen) {
    const ids = byNextAttempt.get(nextAttemptAt.getTime()) ?? [];
    ids.push(feedId);
    byNextAttempt.set(nextAttemptAt.getTime(), ids);
  }
  for (const [nextAttemptAt, ids] of byNextAttempt) {
    await database.db
      .update(feeds)
      .set({
        lastAttemptAt: now,
        lastSuccessAt: now,
        lastStatus: 304,
        lastError: null,
        lastOutcome: "not-modified",
        consecutiveFailures: 0,
        dead: false,
        nextAttemptAt: new Date(nextAttemptAt),
      })
      .where(inArray(feeds.id, ids));
  }
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The database's own words: the driver's error, not the query and parameters the ORM wraps it in. */
function storageErrorMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : (error as Error).message;
}

/** A feed's articles and its state after a good fetch, in one transaction: all of it lands, or none. */
function storeFeed(
  database: DatabaseHandle,
  feedId: number,
  items: NormalizedArticle[],
  now: Date,
  state: Pick<
    typeof feeds.$inferInsert,
    | "title"
    | "etag"
    | "lastModified"
    | "lastStatus"
    | "lastError"
    | "lastOutcome"
    | "lastItemCount"
    | "nextAttemptAt"
  >,
): Promise<StoreResult> {
  return database.db.transaction(async (tx) => {
    const counts = await storeArticles(tx, feedId, items, now);
    await tx
      .update(feeds)
      .set({
        ...state,
        lastAttemptAt: now,
        lastSuccessAt: now,
        consecutiveFailures: 0,
        dead: false,
      })
      .where(eq(feeds.id, feedId));
    return counts;
  });
}

/** A feed's report before anything is known of it: nothing read, nothing stored. */
export function emptyReport(source: FeedSource, outcome: FeedOutcome): FeedReport {
  const counts = { status: null, error: null, items: 0, inserted: 0, updated: 0, durationMs: 0 };
  return { url: source.url, category: source.category, outcome, ...counts };
}

export async function processFeed(
  feed: FeedRow,
  source: FeedSource,
  options: IngestOptions,
  pass: {
    now: Date;
    notModified: NotModified[];
    blockRules: readonly BlockRule[];
    /** What the pass's changes purge from the caches in front, gathered feed by feed. */
    purgeKeys: Set<string>;
    /** The articles stored for the first time, gathered feed by feed, grouped after the feeds. */
    insertedIds: string[];
  },
): Promise<FeedReport> {
  const { database, logger } = options;
  const { now, notModified, blockRules } = pass;
  const started = Date.now();
  const report = emptyReport(source, "fetch-failed");
  const finish = () => ({ ...report, durationMs: Date.now() - started });

  const result = await fetchFeed(source.url, {
    ...DEFAULT_FETCH_OPTIONS,
    ...options.fetchOptions,
    userAgent: userAgent(options.siteUrl, options.siteName),
    etag: feed.etag,
    lastModified: feed.lastModified,
    signal: options.signal,
  });

  /** Records a failed read of the feed, and logs it by what failed: ours (storage) as an error. */
  const fail = async (
    outcome: "fetch-failed" | "not-a-feed" | "store-failed",
    status: number | null,
    error: string,
    retryAfterSeconds: number | null,
    cause?: unknown,
  ) => {
    const failures = feed.consecutiveFailures + 1;
    await database.db
      .update(feeds)
      .set({
        lastAttemptAt: now,
        lastStatus: status,
        lastError: error,
        lastOutcome: outcome,
        consecutiveFailures: failures,
        nextAttemptAt: nextAttemptAfterFailure(now, failures, retryAfterSeconds),
        dead: status === 410 || failures >= DEAD_AFTER_FAILURES,
      })
      .where(eq(feeds.id, feed.id));
    const entry = { feed: source.url, outcome, status, reason: error, failures };
    if (outcome === "store-failed") logger.error({ ...entry, err: cause }, FEED_LOG[outcome]);
    else logger.warn(entry, FEED_LOG[outcome]);
    Object.assign(report, { outcome, status, error });
    return finish();
  };

  if (result.kind === "error") {
    // A fetch cut short because this process is stopping says nothing about the feed: it stays due
    // for the next pass, in whichever process runs it, rather than backing off as a failure.
    if (options.signal?.aborted) {
      Object.assign(report, { outcome: "not-due" });
      return finish();
    }
    return fail("fetch-failed", result.status, result.error, result.retryAfterSeconds);
  }

  if (result.kind === "not-modified") {
    // Nothing to parse or store; the feed's bookkeeping is written with the pass's other 304s.
    notModified.push({
      feedId: feed.id,
      nextAttemptAt: nextAttemptAfterSuccess(now, {
        ttlMinutes: null,
        maxAgeSeconds: result.maxAgeSeconds,
      }),
    });
    Object.assign(report, { outcome: "not-modified", status: 304 });
    return finish();
  }

  let parsed: ReturnType<typeof articlesFromBody>;
  try {
    parsed = articlesFromBody(result, source, options.siteUrl);
  } catch (error) {
    const message =
      error instanceof FeedParseError ? error.message : `Parse error: ${(error as Error).message}`;
    return fail("not-a-feed", result.status, message, null);
  }

  // Items staff's block rules name never reach the store (nor take one of the feed's places).
  const allowed = parsed.items.filter((item) => !blockingRule(blockRules, feed.id, item));
  const blocked = parsed.items.length - allowed.length;
  const items = newestItems(allowed, now);
  const outcome = items.length === 0 ? "no-items" : "stored";
  let stored: StoreResult;
  try {
    stored = await storeFeed(database, feed.id, items, now, {
      title: parsed.title,
      etag: result.etag,
      lastModified: result.lastModified,
      lastStatus: result.status,
      lastOutcome: outcome,
      lastItemCount: items.length,
      lastError:
        parsed.items.length === 0
          ? "The feed holds no items"
          : parsed.damaged
            ? `The feed is cut off or damaged: read ${plural(parsed.items.length, "complete item")} before the damage`
            : null,
      nextAttemptAt: nextAttemptAfterSuccess(now, {
        ttlMinutes: parsed.ttlMinutes,
        maxAgeSeconds: result.maxAgeSeconds,
      }),
    });
  } catch (error) {
    // The transaction rolled back: nothing of this feed was written, its validators included, so the
    // next pass reads the whole feed again. The feed's state says why.
    return fail(
      "store-failed",
      result.status,
      `Storage error: ${storageErrorMessage(error)}`,
      null,
      error,
    );
  }
  Object.assign(report, {
    outcome,
    status: result.status,
    items: items.length,
    inserted: stored.inserted,
    updated: stored.updated,
  });
  stored.purgeKeys.forEach((key) => pass.purgeKeys.add(key));
  pass.insertedIds.push(...stored.insertedIds);
  const { purgeKeys: _keys, insertedIds: _ids, ...counts } = stored;
  const entry = { feed: source.url, outcome, items: items.length, blocked, ...counts };
  if (outcome === "no-items") logger.warn(entry, FEED_LOG[outcome]);
  else logger.info(entry, FEED_LOG[outcome]);
  return finish();
}
