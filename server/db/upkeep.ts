import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "../logger";
import { mergePendingSearchEntries } from "../news/search-window";
import type { DatabaseHandle } from "./client";
import { upkeepRuns } from "./schema";

/** How often the site's upkeep runs. */
const UPKEEP_INTERVAL_MS = 24 * 3600_000;
/** A run that failed is tried again by the first pass this long after it (not a day later). */
const RETRY_AFTER_MS = 3600_000;

/** The task's name in upkeep_runs. */
const DAILY = "daily";

/**
 * Claims the upkeep for `at`: true for the one caller that finds it not run for an interval (or
 * never), which records `at` in the same statement; false for every other.
 */
async function claim(database: Pick<DatabaseHandle, "db">, at: Date): Promise<boolean> {
  const due = new Date(at.getTime() - UPKEEP_INTERVAL_MS);
  const claimed = await database.db
    .insert(upkeepRuns)
    .values({ task: DAILY, lastRunAt: at })
    .onConflictDoUpdate({
      target: upkeepRuns.task,
      set: { lastRunAt: at },
      setWhere: sql`${upkeepRuns.lastRunAt} <= ${due}`,
    })
    .returning({ task: upkeepRuns.task });
  return claimed.length === 1;
}

/**
 * Gives back the claim made for `at` after its run failed: the upkeep is due again RETRY_AFTER_MS
 * after `at`, unless another run has claimed it since.
 */
async function release(database: Pick<DatabaseHandle, "db">, at: Date): Promise<void> {
  await database.db
    .update(upkeepRuns)
    .set({ lastRunAt: new Date(at.getTime() - UPKEEP_INTERVAL_MS + RETRY_AFTER_MS) })
    .where(and(eq(upkeepRuns.task, DAILY), eq(upkeepRuns.lastRunAt, at)));
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
 * A run that fails (the database restarting, a lock) is tried again by the first pass an hour later.
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
      return true;
    } catch (error) {
      // Tried again within the hour rather than a day later; when the database is gone, the claim
      // may stay, and the upkeep waits a day.
      const retry =
        claimed &&
        (await release(database, at).then(
          () => true,
          () => false,
        ));
      logger.warn(
        { err: error, ...(retry ? { retryAfterMinutes: RETRY_AFTER_MS / 60_000 } : {}) },
        "the site's daily upkeep could not run",
      );
      return false;
    }
  };
}
