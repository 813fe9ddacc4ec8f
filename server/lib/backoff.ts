/**
 * When to try again after failures: exponential backoff, with a server's Retry-After as a floor.
 * Feeds (ingest) and feed pictures (images) back off alike.
 */

const BACKOFF_BASE_MS = 15 * 60_000;
export const BACKOFF_MAX_MS = 6 * 60 * 60_000;

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
