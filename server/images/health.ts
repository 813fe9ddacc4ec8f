import { asc, desc, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { pictures } from "../db/schema";

export interface PictureHealth {
  /** Addresses named by articles and blog posts. */
  addresses: number;
  /** Kept by us (fetched and usable). */
  kept: number;
  /** Files of our own site, shown as they are. */
  site: number;
  /** Not asked for yet (the next pass will). */
  waiting: number;
  /** Whose last attempt failed (shown with the default picture until one succeeds). */
  failing: number;
  /** The failing addresses, most failures first. */
  failures: {
    url: string;
    consecutiveFailures: number;
    lastError: string | null;
    checkedAt: Date | null;
    nextAttemptAt: Date | null;
  }[];
}

/** What `news pictures` tells the operator: how the feeds' pictures stand, and which fail. */
export async function pictureHealth(db: Database, limit = 50): Promise<PictureHealth> {
  const [counts] = await db
    .select({
      addresses: sql<number>`count(*)::int`,
      kept: sql<number>`count(*) FILTER (WHERE ${pictures.picture}->>'kind' = 'stored')::int`,
      site: sql<number>`count(*) FILTER (WHERE ${pictures.picture}->>'kind' = 'site')::int`,
      waiting: sql<number>`count(*) FILTER (WHERE ${pictures.checkedAt} IS NULL)::int`,
      failing: sql<number>`count(*) FILTER (WHERE ${pictures.consecutiveFailures} > 0)::int`,
    })
    .from(pictures);
  const failures = await db
    .select({
      url: pictures.url,
      consecutiveFailures: pictures.consecutiveFailures,
      lastError: pictures.lastError,
      checkedAt: pictures.checkedAt,
      nextAttemptAt: pictures.nextAttemptAt,
    })
    .from(pictures)
    .where(gt(pictures.consecutiveFailures, 0))
    .orderBy(desc(pictures.consecutiveFailures), asc(pictures.url))
    .limit(limit);
  return {
    addresses: counts?.addresses ?? 0,
    kept: counts?.kept ?? 0,
    site: counts?.site ?? 0,
    waiting: counts?.waiting ?? 0,
    failing: counts?.failing ?? 0,
    failures,
  };
}
