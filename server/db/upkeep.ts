import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "../logger";
import { mergePendingSearchEntries } from "../news/search-window";
import type { DatabaseHandle } from "./client";
import { upkeepRuns } from "./schema";

/** How often the site's upkeep runs. */
const UPKEEP_INTERVAL_MS = 24 * 3600_000;
/**
 * How long a claim holds before the run ends: a run that fails, or whose process dies, is tried
 * again by the first pass this long after it, not a day later.
 */
const CLAIM_HOLDS_MS = 3600_000;

/** The task's name in upkeep_runs. */
const DAILY = "daily";

/**
 * What `last_run_at` says while a run that began at `at` is under way: as if the last run were a
 * day less CLAIM_HOLDS_MS before it, so no one else claims it within that time.
 */
const underWay = (at: Date) => new Date(at.getTime() - UPKEEP_INTERVAL_MS + CLAIM_HOLDS_MS);

/**
 * Claims the upkeep for `at`: true for the one caller that finds it not run for an interval (or
 * never), which marks it under way in the same statement; false for every other.
 */
async function claim(database: Pick<DatabaseHandle, "db">, at: Date): Promise<boolean> {
  const due = new Date(at.getTime() - UPKEEP_INTERVAL_MS);
  const claimed = await database.db
    .insert(upkeepRuns)
    .values({ task: DAILY, lastRunAt: underWay(at) })
    .onConflictDoUpdate({
      target: upkeepRuns.task,
      set: { lastRunAt: underWay(at) },
      setWhere: sql`${upkeepRuns.lastRunAt} <= ${due}`,
    })
    .returning({ task: upkeepRuns.task });
  return claimed.length === 1;
}

/** Records the run claimed for `at` as done, unless another has claimed the upkeep since. */
async function done(database: Pick<DatabaseHandle, "db">, at: Date): Promise<void> {
  await database.db
    .update(upkeepRuns)
    .set({ lastRunAt: at })
    .where(and(eq(upkeepRuns.task, DAILY), eq(upkeepRuns.lastRunAt, underWay(at))));
}

/**
 * The site's upkeep, run after an ingest pass (the web process's schedule, `news ingest`) and at
 * most once per interval across every process of the site (upkeep_runs); resolves to whether it
 * ran:
 *
 * - On PGlite, which runs no autovacuum, `VACUUM (ANALYZE)`: its planner gets statistics and its
 *   visibility map lets index-only scans skip the table (an article sitemap at 47,000 articles:
 *   250 ms before, 15 ms after; decision 030), and the search indexes' new entries are merged.
 *   It holds the one connection for seconds at 100,000 articles.
 * - On PostgreSQL, whose autovacuum does the rest, the search indexes' new entries are merged
 *   (`mergePendingSearchEntries`): autovacuum comes only after a fifth of the table is new.
 *
 * A run that fails (the database restarting, a lock) or never ends (its process killed) is tried
 * again by the first pass an hour after it began: a claim holds for that long until the run is done.
 *
 * A day's new entries left in GIN's pending lists cost searches nothing measurable (decision 035:
 * 18 days' worth were within noise), and one merge of a day's entries costs less than a merge
 * after each pass, which on a grown site is most of what its pass costs more than a new one's.
 */
export function siteUpkeep(
  database: Pick<DatabaseHandle, "kind" | "db">,
  logger: Logger,
  options: { now?: () => Date } = {},
): () => Promise<boolean> {
  const now = options.now ?? (() => new Date());
  return async () => {
    const started = Date.now();
    const at = now();
    let claimed = false;
    try {
      claimed = await claim(database, at);
      if (!claimed) return false;
      if (database.kind === "pglite") {
        await database.db.execute(sql`VACUUM (ANALYZE)`);
        logger.info({ ms: Date.now() - started }, "embedded database vacuumed and analysed");
      } else {
        const pages = await mergePendingSearchEntries(database.db);
        logger.info({ ms: Date.now() - started, pages }, "search indexes' new entries merged");
      }
      await done(database, at);
      return true;
    } catch (error) {
      // The claim lapses by itself (CLAIM_HOLDS_MS): nothing to give back, which a database that
      // has gone could not take anyway.
      logger.warn(
        { err: error, ...(claimed ? { retryAfterMinutes: CLAIM_HOLDS_MS / 60_000 } : {}) },
        "the site's daily upkeep could not run",
      );
      return false;
    }
  };
}
