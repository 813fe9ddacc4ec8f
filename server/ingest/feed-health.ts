import type { Database } from "../db/client";
import { listFeeds, type FeedRow } from "../news/repository";
import type { FeedSource } from "./feeds-config";
import { describeOutcome, type FeedOutcome } from "./ingest";

export type FeedHealth =
  "not configured" | "DEAD" | "FAILING" | "WARNING" | "ok" | "not fetched yet";

/**
 * The health of a feed: what the operator is told about it (`news feeds`, the newsroom's feeds
 * screen). A feed read without failing that still says something is wrong (no items, cut off) is
 * a WARNING, its last error why.
 */
export function feedHealth(
  feed: Pick<FeedRow, "dead" | "consecutiveFailures" | "lastSuccessAt" | "lastError">,
  configured: boolean,
): FeedHealth {
  if (!configured) return "not configured";
  if (feed.dead) return "DEAD";
  if (feed.consecutiveFailures > 0) return "FAILING";
  if (!feed.lastSuccessAt) return "not fetched yet";
  return feed.lastError ? "WARNING" : "ok";
}

/** One feed's line of `news feeds` and of the newsroom's feeds screen. */
export interface FeedHealthLine {
  health: FeedHealth;
  category: string;
  url: string;
  title: string | null;
  /** The HTTP status of the last read, if it got one. */
  status: number | null;
  /** What the last read came to (`stored 15`, `no items`, `fetch failed`), or null before any. */
  lastResult: string | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  failures: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/** Every stored feed's health, by category and address, told apart from the configured ones. */
export async function feedHealthReport(
  db: Database,
  sources: readonly Pick<FeedSource, "url">[],
): Promise<FeedHealthLine[]> {
  const configured = new Set(sources.map((s) => s.url));
  return (await listFeeds(db)).map((feed) => ({
    health: feedHealth(feed, configured.has(feed.url)),
    category: feed.category,
    url: feed.url,
    title: feed.title,
    status: feed.lastStatus,
    lastResult: feed.lastOutcome
      ? describeOutcome(feed.lastOutcome as FeedOutcome, feed.lastItemCount)
      : null,
    lastAttemptAt: feed.lastAttemptAt,
    lastSuccessAt: feed.lastSuccessAt,
    failures: feed.consecutiveFailures,
    nextAttemptAt: feed.nextAttemptAt,
    lastError: feed.lastError,
  }));
}
