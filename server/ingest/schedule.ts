/**
 * When a feed is next due: after a failure, the backoff (server/lib/backoff.ts); after a success,
 * floors from the feed and the server.
 */
import { BACKOFF_MAX_MS } from "../lib/backoff";

/** After this many failures in a row (or one 410 Gone) a feed shows as dead; it is still retried. */
export const DEAD_AFTER_FAILURES = 20;

/** A feed's <ttl> and the answer's max-age say how soon asking again is pointless. */
export function nextAttemptAfterSuccess(
  now: Date,
  floors: { ttlMinutes: number | null; maxAgeSeconds: number | null },
): Date {
  const floor = Math.max((floors.ttlMinutes ?? 0) * 60_000, (floors.maxAgeSeconds ?? 0) * 1000);
  // Capped like the backoff: a feed announcing a week-long ttl is still read a few times a day.
  return new Date(now.getTime() + Math.min(floor, BACKOFF_MAX_MS));
}
