import type { DatabaseHandle } from "../db/client";
import { runPicturePass, type PicturePassOptions, type PicturePassSummary } from "../images/pass";
import type { Logger } from "../logger";
import { listBlockRules } from "../newsroom/block-rules";
import { ensureFeeds } from "../news/repository";
import type { FeedSource } from "./feeds-config";
import type { DEFAULT_FETCH_OPTIONS } from "../lib/fetch";
import { isLocalSource, type FetchOptions } from "./fetch";
import { runPool, type PoolLimits } from "../lib/pool";
import { resanitizeArticles } from "./resanitize";
import {
  emptyReport,
  FEED_LOG,
  processFeed,
  recordNotModified,
  userAgent,
  type NotModified,
} from "./read-feed";
import { groupNewArticles, type ChangedStory } from "../grouping/store";
import { SEARCH_KEY, storyChangeKeys } from "../../shared/cache-keys";
import { refreshSearchWindows } from "../news/search-window";

/** Every process sharing a database takes this lock for a pass, so only one pass runs at a time. */
export const INGEST_LOCK_ID = 7_241_002;

const DEFAULT_LIMITS: PoolLimits = { global: 6, perHost: 2 };

export function limitsFor(globalConcurrency: number): PoolLimits {
  return {
    global: globalConcurrency,
    perHost: Math.min(DEFAULT_LIMITS.perHost, globalConcurrency),
  };
}

/**
 * What reading a feed came to: its items stored, a feed with no items, unchanged since last time
 * (304), or failed in one of three ways the operator tells apart: nothing usable came back (fetch
 * failed), something came back that is not a feed, or our database refused it.
 */
export type FeedOutcome =
  | "stored"
  | "no-items"
  | "not-modified"
  | "fetch-failed"
  | "not-a-feed"
  | "store-failed"
  | "not-due";

const FAILURES: ReadonlySet<FeedOutcome> = new Set(["fetch-failed", "not-a-feed", "store-failed"]);

export const isFailure = (outcome: FeedOutcome) => FAILURES.has(outcome);

/** An outcome as the operator reads it: `stored 15`, `not a feed`. */
export function describeOutcome(outcome: FeedOutcome, items?: number | null): string {
  const words = outcome.replaceAll("-", " ");
  return outcome === "stored" ? `${words} ${items ?? 0}` : words;
}

export interface FeedReport {
  url: string;
  category: string;
  outcome: FeedOutcome;
  status: number | null;
  error: string | null;
  items: number;
  inserted: number;
  updated: number;
  durationMs: number;
}

export interface IngestSummary {
  feeds: FeedReport[];
  fetched: number;
  notModified: number;
  failed: number;
  notDue: number;
  inserted: number;
  updated: number;
  /** What the picture pass did; null when the pass ran without pictures. */
  pictures: PicturePassSummary | null;
  durationMs: number;
}

export interface IngestOptions {
  database: DatabaseHandle;
  logger: Logger;
  siteUrl: string;
  /** The publication's name (site settings), for the User-Agent. */
  siteName: string;
  /** Fetch every feed, even those whose next attempt is still ahead. */
  force?: boolean;
  limits?: PoolLimits;
  /** Overrides of the fetch limits (tests use small ones). */
  fetchOptions?: Partial<Pick<FetchOptions, keyof typeof DEFAULT_FETCH_OPTIONS>>;
  now?: () => Date;
  /** Stops the pass between feeds (shutdown). */
  signal?: AbortSignal;
  onFeed?: (report: FeedReport) => void;
  /**
   * Where the feeds' pictures are kept and how they are fetched: with it, the pass fetches the
   * pictures of the articles it stored (server/images/pass.ts) before it tells the web processes.
   */
  pictures?: Omit<
    PicturePassOptions,
    "database" | "logger" | "siteUrl" | "userAgent" | "now" | "signal"
  >;
}

function hostOf(url: string): string {
  return isLocalSource(url) ? "local-file" : (URL.parse(url)?.host ?? url);
}

/**
 * Puts the pass's new articles in story groups (server/grouping). The articles are stored whatever
 * happens here: a failure is logged, and those articles stand alone.
 */
async function groupStored(options: IngestOptions, ids: string[]): Promise<ChangedStory[]> {
  if (ids.length === 0) return [];
  try {
    return await options.database.db.transaction((tx) => groupNewArticles(tx, ids));
  } catch (error) {
    options.logger.error({ err: error, articles: ids.length }, "could not group the new articles");
    return [];
  }
}

/**
 * One ingest pass over the configured feeds: registers them, fetches those that are due
 * concurrently, and stores what they hold. A failing feed never affects another.
 */
export async function runIngestPass(
  sources: FeedSource[],
  options: IngestOptions,
): Promise<IngestSummary> {
  const started = Date.now();
  const now = options.now?.() ?? new Date();
  await resanitizeArticles(options.database);
  const registered = await ensureFeeds(options.database.db, sources);
  const notModified: NotModified[] = [];
  const blockRules = await listBlockRules(options.database.db);
  const purgeKeys = new Set<string>();
  const insertedIds: string[] = [];

  const reports = await runPool(
    registered,
    ({ source }) => hostOf(source.url),
    options.limits ?? DEFAULT_LIMITS,
    async ({ feed, source }): Promise<FeedReport> => {
      const notDue =
        !options.force &&
        feed.nextAttemptAt !== null &&
        feed.nextAttemptAt.getTime() > now.getTime();
      let report: FeedReport;
      if (notDue || options.signal?.aborted) {
        report = emptyReport(source, "not-due");
      } else {
        try {
          report = await processFeed(feed, source, options, {
            now,
            notModified,
            blockRules,
            purgeKeys,
            insertedIds,
          });
        } catch (error) {
          // A database error while storing one feed is that feed's failure, not the pass's.
          options.logger.error(
            { feed: source.url, outcome: "store-failed", err: error },
            FEED_LOG["store-failed"],
          );
          report = {
            url: source.url,
            category: source.category,
            outcome: "store-failed",
            status: null,
            error: `Storage error: ${(error as Error).message}`,
            items: 0,
            inserted: 0,
            updated: 0,
            durationMs: 0,
          };
        }
      }
      options.onFeed?.(report);
      return report;
    },
  );

  await recordNotModified(options.database, notModified, now);
  const regrouped = await groupStored(options, insertedIds);
  storyChangeKeys(regrouped).forEach((key) => purgeKeys.add(key));

  let pictures: PicturePassSummary | null = null;
  if (options.pictures && !options.signal?.aborted) {
    try {
      pictures = await runPicturePass({
        ...options.pictures,
        database: options.database,
        logger: options.logger,
        siteUrl: options.siteUrl,
        userAgent: userAgent(options.siteUrl, options.siteName),
        now,
        signal: options.signal,
      });
    } catch (error) {
      // The articles are stored; their pictures are tried again on the next pass.
      options.logger.error({ err: error }, "picture pass failed");
    }
  }

  // Search's windows of the newest stories move with them (decision 035).
  const windowMoved = await refreshSearchWindows(options.database.db).catch((error: unknown) => {
    options.logger.warn({ err: error }, "could not move the search windows");
    return false;
  });
  if (windowMoved) purgeKeys.add(SEARCH_KEY);
  // The stories' new search entries are merged by the daily upkeep (server/db/upkeep.ts).

  const changed =
    windowMoved ||
    regrouped.length > 0 ||
    reports.some((r) => r.inserted > 0 || r.updated > 0) ||
    (pictures !== null &&
      (pictures.articlesChanged > 0 || pictures.fetched > 0 || pictures.removed > 0));
  pictures?.purgeKeys?.forEach((key) => purgeKeys.add(key));
  if (changed) {
    // Web processes drop their cached pages, and the caches in front the pages the pass changed;
    // a lost notice only delays that by the cache's TTL.
    await options.database.announceChange([...purgeKeys]).catch((error: unknown) => {
      options.logger.warn({ err: error }, "could not announce the changed articles");
    });
  }

  const count = (outcome: FeedOutcome) => reports.filter((r) => r.outcome === outcome).length;
  return {
    feeds: reports,
    fetched: count("stored") + count("no-items"),
    notModified: count("not-modified"),
    failed: reports.filter((r) => isFailure(r.outcome)).length,
    notDue: count("not-due"),
    inserted: reports.reduce((n, r) => n + r.inserted, 0),
    updated: reports.reduce((n, r) => n + r.updated, 0),
    pictures,
    durationMs: Date.now() - started,
  };
}
