import type { DatabaseHandle } from "../db/client";
import { siteUpkeep } from "../db/upkeep";
import type { Logger } from "../logger";
import { repeatEvery, type Repeating } from "../repeat";
import type { FeedSource } from "./feeds-config";
import {
  INGEST_LOCK_ID,
  limitsFor,
  runIngestPass,
  type IngestOptions,
  type IngestSummary,
} from "./ingest";

/** Its `stop()` stops the pass under way between feeds and waits for it. */
export type Scheduler = Repeating;

/** Logged when a pass stops because its lock went with a lost database connection. */
export const LOCK_LOST_MESSAGE =
  "ingest pass stopped between feeds: the database connection holding the ingest lock was lost; the feeds not reached stay due";

/** Up to ±10 %, so several processes started together do not knock on every feed at once. */
export function withJitter(ms: number, random = Math.random): number {
  return Math.round(ms * (0.9 + random() * 0.2));
}

/** What an ingest pass of the web process needs: the schedule's and the newsroom's. */
export interface PassOptions {
  database: DatabaseHandle;
  logger: Logger;
  siteUrl: string;
  siteName: string;
  sources: FeedSource[];
  concurrency: number;
  /** Where the feeds' pictures are kept (without it, pictures are not fetched). */
  pictures?: IngestOptions["pictures"];
  /** Work that belongs with every pass (copying the blog for search), run under the same lock. */
  afterPass?: () => Promise<unknown>;
}

/**
 * One ingest pass under the ingest lock, as the schedule runs it (and the newsroom's "Start an
 * ingest pass"): null at once when another process holds the lock. `onLocked` is called as soon as
 * the lock is held, before the pass.
 */
export async function lockedIngestPass(
  options: PassOptions,
  run: { signal?: AbortSignal; onLocked?: () => void } = {},
): Promise<IngestSummary | null> {
  const { database, logger } = options;
  const outcome = await database.withLock(INGEST_LOCK_ID, { wait: false }, async (lockLost) => {
    run.onLocked?.();
    const summary = await runIngestPass(options.sources, {
      database,
      logger,
      siteUrl: options.siteUrl,
      siteName: options.siteName,
      limits: limitsFor(options.concurrency),
      pictures: options.pictures,
      signal: run.signal ? AbortSignal.any([run.signal, lockLost]) : lockLost,
    });
    if (lockLost.aborted) {
      // Another process may be running a pass now: this one stops between feeds.
      logger.warn(LOCK_LOST_MESSAGE);
      return summary;
    }
    await options.afterPass?.();
    return summary;
  });
  return outcome.acquired ? outcome.value : null;
}

/** Ingest inside the web process: a pass right after start-up, then one every interval. */
export function startScheduler(
  options: PassOptions & {
    intervalMinutes: number;
    onPass?: (summary: IngestSummary) => void;
  },
): Scheduler {
  const { logger } = options;
  const upkeep = siteUpkeep(options.database, logger);
  return repeatEvery(
    async (signal) => {
      const summary = await lockedIngestPass(options, { signal });
      if (!summary) {
        logger.info("ingest pass skipped: another process is running one");
        return;
      }
      const { feeds: _reports, ...totals } = summary;
      logger.info(totals, "ingest pass finished");
      options.onPass?.(summary);
      await upkeep();
    },
    () => withJitter(options.intervalMinutes * 60_000),
    (error) => logger.error({ err: error }, "ingest pass failed"),
  );
}
