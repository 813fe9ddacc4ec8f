/** When a feed is next due: exponential backoff after failures, floors from the feed and the server. */

export const BACKOFF_BASE_MS = 15 * 60_000;
export const BACKOFF_MAX_MS = 6 * 60 * 60_000;
/** After this many failures in a row (or one 410 Gone) a feed shows as dead; it is still retried. */
export const DEAD_AFTER_FAILURES = 20;

export function backoffMs(consecutiveFailures: number): number {
  const exponent = Math.max(0, consecutiveFailures - 1);
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.min(exponent, 20), BACKOFF_MAX_MS);
}

export function nextAttemptAfterFailure(
  now: Date,
  consecutiveFailures: number,
  retryAfterSeconds: number | null,
): Date {
  const floor = (retryAfterSeconds ?? 0) * 1000;
  return new Date(now.getTime() + Math.max(backoffMs(consecutiveFailures), floor));
}

/** A feed's <ttl> and the answer's max-age say how soon asking again is pointless. */
export function nextAttemptAfterSuccess(
  now: Date,
  floors: { ttlMinutes: number | null; maxAgeSeconds: number | null },
): Date {
  const floor = Math.max((floors.ttlMinutes ?? 0) * 60_000, (floors.maxAgeSeconds ?? 0) * 1000);
  // Capped like the backoff: a feed announcing a week-long ttl is still read a few times a day.
  return new Date(now.getTime() + Math.min(floor, BACKOFF_MAX_MS));
}
