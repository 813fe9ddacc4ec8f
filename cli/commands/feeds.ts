import { loadFeedSources } from "../../server/ingest/feeds-config";
import { feedHealthReport } from "../../server/ingest/feed-health";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable, minute } from "../table";

export const feedsCommand: Command = {
  name: "feeds",
  summary:
    "Show each feed's health: status, what the last read came to (stored N, no items, not a feed, fetch failed, store failed), last success, failures in a row, next attempt.",
  usage: "news feeds",
  options: {},
  async run() {
    return withDatabase("`news feeds`", async (database, config) => {
      const report = await feedHealthReport(database.db, loadFeedSources(config.feedsFile));
      const rows = report.map((feed) => [
        feed.health,
        feed.category,
        feed.url,
        feed.status === null ? "-" : String(feed.status),
        feed.lastResult ?? "-",
        minute(feed.lastSuccessAt, "never"),
        String(feed.failures),
        minute(feed.nextAttemptAt, "never"),
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
