import { sql } from "drizzle-orm";
import type { Logger } from "../logger";
import type { DatabaseHandle } from "./client";

/** How often the embedded database is vacuumed and analysed. */
const UPKEEP_INTERVAL_MS = 24 * 3600_000;

/**
 * What autovacuum does for PostgreSQL, for PGlite, which runs none: `VACUUM (ANALYZE)` at most once
 * per interval, so its planner has statistics and its visibility map lets index-only scans skip
 * the table (an article sitemap at 47,000 articles: 250 ms before, 15 ms after; decision 030). It
 * holds the one connection for seconds at 100,000 articles, so once a day after an ingest pass.
 * Nothing on PostgreSQL.
 */
export function embeddedUpkeep(
  database: Pick<DatabaseHandle, "kind" | "db">,
  logger: Logger,
  options: { intervalMs?: number; now?: () => number } = {},
): () => Promise<void> {
  const intervalMs = options.intervalMs ?? UPKEEP_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let last: number | null = null;
  return async () => {
    if (database.kind !== "pglite") return;
    if (last !== null && now() - last < intervalMs) return;
    last = now();
    const started = Date.now();
    try {
      await database.db.execute(sql`VACUUM (ANALYZE)`);
      logger.info({ ms: Date.now() - started }, "embedded database vacuumed and analysed");
    } catch (error) {
      logger.warn({ err: error }, "the embedded database could not be vacuumed");
    }
  };
}
