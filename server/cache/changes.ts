import type { DatabaseHandle } from "../db/client";
import type { Purger } from "./purge";

/**
 * The database handle whose `announceChange(keys)` also purges `keys` from the caches in front of
 * the site (decision 009): every change already announces itself there (newsroom actions, ingest
 * passes, scheduled publishing), so this is the one place a purge starts. The purge is queued
 * after the notice is sent, so the web processes' own page caches are emptied first (a CDN asking
 * again at once would otherwise get the old page from them), and whether the notice could be sent
 * or not: the change itself is committed.
 */
export function withPurger(database: DatabaseHandle, purger: Purger): DatabaseHandle {
  return {
    ...database,
    async announceChange(keys) {
      try {
        await database.announceChange();
      } finally {
        if (keys && keys.length > 0) purger.purge(keys);
      }
    },
  };
}
