import { loadFeedSources } from "../../server/ingest/feeds-config";
import { describeOutcome, type FeedOutcome } from "../../server/ingest/ingest";
import { listFeeds, type FeedRow } from "../../server/news/repository";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable } from "../table";

function when(date: Date | null): string {
  return date ? date.toISOString().replace("T", " ").slice(0, 16) : "never";
}

export type FeedHealth =
  "not configured" | "DEAD" | "FAILING" | "WARNING" | "ok" | "not fetched yet";

/**
 * The health column of `news feeds`: what the operator is told about a feed. A feed read without
 * failing that still says something is wrong (no items, cut off) is a WARNING, its last error why.
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

export const feedsCommand: Command = {
  name: "feeds",
  summary:
    "Show each feed's health: status, what the last read came to (stored N, no items, not a feed, fetch failed, store failed), last success, failures in a row, next attempt.",
  usage: "news feeds",
  options: {},
  async run() {
    return withDatabase("`news feeds`", async (database, config) => {
      await database.migrate();
      const configured = new Set(loadFeedSources(config.feedsFile).map((s) => s.url));
      const rows = (await listFeeds(database.db)).map((feed) => [
        feedHealth(feed, configured.has(feed.url)),
        feed.category,
        feed.url,
        feed.lastStatus === null ? "-" : String(feed.lastStatus),
        feed.lastOutcome
          ? describeOutcome(feed.lastOutcome as FeedOutcome, feed.lastItemCount)
          : "-",
        when(feed.lastSuccessAt),
        String(feed.consecutiveFailures),
        when(feed.nextAttemptAt),
        feed.lastError ?? "",
      ]);
      if (rows.length === 0) {
        console.log("No feeds fetched yet: run `news ingest`.");
        return 0;
      }
      console.log(
        formatTable(
          [
            "health",
            "category",
            "feed",
            "status",
            "last result",
            "last success",
            "failures",
            "next attempt",
            "last error",
          ],
          rows,
        ),
      );
      return 0;
    });
  },
};
