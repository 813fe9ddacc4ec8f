import { setTimeout as sleep } from "node:timers/promises";
import type { PicturePassSummary } from "../../server/images/pass";
import { pictureStoreFor } from "../../server/images/store-for";
import { siteBlog } from "../../server/blog/create-source";
import { siteUpkeep } from "../../server/db/upkeep";
import { refreshBlogIndex } from "../../server/blog/search-index";
import { loadContentOrExit } from "../../server/content/load";
import { loadFeedSources } from "../../server/ingest/feeds-config";
import {
  describeOutcome,
  INGEST_LOCK_ID,
  isFailure,
  limitsFor,
  runIngestPass,
  type FeedReport,
  type IngestSummary,
} from "../../server/ingest/ingest";
import { createLogger } from "../../server/logger";
import type { Command } from "../command";
import { progressReporter } from "../progress";
import { withDatabase } from "../database";
import { formatTable } from "../table";

function progressLine(report: FeedReport): string {
  const failed = isFailure(report.outcome);
  const what =
    report.outcome === "stored"
      ? `${report.items} items, ${report.inserted} new, ${report.updated} updated`
      : failed
        ? `${describeOutcome(report.outcome).toUpperCase()}: ${report.error ?? "unknown error"}`
        : report.outcome === "no-items"
          ? `no items: ${report.error ?? "the feed holds none"}`
          : describeOutcome(report.outcome);
  return `${failed ? "✖" : "✔"} [${report.category}] ${report.url} — ${what} (${report.durationMs} ms)`;
}

function summaryTable(summary: IngestSummary): string {
  return formatTable(
    ["fetched", "not modified", "failed", "not due", "new articles", "updated articles", "time"],
    [
      [
        summary.fetched,
        summary.notModified,
        summary.failed,
        summary.notDue,
        summary.inserted,
        summary.updated,
        `${(summary.durationMs / 1000).toFixed(1)} s`,
      ].map(String),
    ],
  );
}

export const ingest: Command = {
  name: "ingest",
  summary:
    "Fetch the configured feeds once and store their articles (or keep doing so with --watch).",
  usage: "news ingest [--force] [--watch]",
  options: {
    force: { type: "boolean", description: "Fetch every feed now, even those not due yet" },
    watch: {
      type: "boolean",
      description: "Run as a worker: a pass every INGEST_INTERVAL_MINUTES until stopped",
    },
  },
  async run({ values }) {
    return withDatabase("`news ingest`", async (database, config) => {
      // The progress lines already say what failed; the logger speaks up only for errors or when asked.
      const logger = createLogger(
        ["debug", "trace"].includes(config.logLevel) ? config.logLevel : "error",
      );
      const sources = loadFeedSources(config.feedsFile);
      const { site } = loadContentOrExit(config.contentDir);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);

      // Listed as the site lists it, the newsroom's blog posts too, so search keeps them.
      const blog = siteBlog(database.db, config, logger);

      // Once a day across the site's processes, whichever runs a pass first (server/db/upkeep.ts).
      const upkeep = siteUpkeep(database, logger);

      // A pass whose lock went with its database connection stopped short: a one-off run fails.
      let lockWasLost = false;
      const pass = async () => {
        const progress = progressReporter(sources.length);
        const outcome = await database.withLock(
          INGEST_LOCK_ID,
          { wait: false },
          async (lockLost) => {
            const summary = await runIngestPass(sources, {
              database,
              logger,
              siteUrl: config.siteUrl,
              siteName: site.name,
              force: Boolean(values.force),
              limits: limitsFor(config.ingestConcurrency),
              pictures: {
                store: pictureStoreFor(config.pictures),
                allowPrivateAddresses: config.pictures.allowPrivateAddresses,
              },
              signal: AbortSignal.any([controller.signal, lockLost]),
              onFeed: (report) => progress.line(progressLine(report)),
            });
            progress.finish();
            if (lockLost.aborted) {
              lockWasLost = true;
              console.log(
                "The database connection holding the ingest lock was lost: this pass stopped between feeds; the feeds it did not reach stay due.",
              );
              return summary;
            }
            if (summary.pictures) console.log(picturesLine(summary.pictures));
            const copied = await refreshBlogIndex(database.db, blog, logger);
            console.log(
              copied
                ? `Blog: ${copied.posts} posts copied for search.`
                : "Blog: could not be read; search keeps its last copy.",
            );
            return summary;
          },
        );
        if (!outcome.acquired) {
          progress.finish();
          console.log("Another ingest pass is running on this database: skipped this one.");
          return undefined;
        }
        console.log(`\n${summaryTable(outcome.value)}`);
        if (!lockWasLost && (await upkeep())) {
          console.log(
            database.kind === "pglite"
              ? "Daily upkeep: the database vacuumed and analysed."
              : "Daily upkeep: the search indexes' new entries merged.",
          );
        }
        return outcome.value;
      };

      if (!values.watch) {
        const summary = await pass();
        if (lockWasLost) return 1;
        return summary && summary.failed === summary.feeds.length && summary.failed > 0 ? 1 : 0;
      }
      const intervalMs = Math.max(1, config.ingestIntervalMinutes || 15) * 60_000;
      console.log(`Watching: a pass every ${intervalMs / 60_000} minutes. Ctrl-C stops.`);
      while (!controller.signal.aborted) {
        await pass();
        // A stop ends the wait at once (it rejects), and with it the loop.
        await sleep(intervalMs, undefined, { signal: controller.signal }).catch(() => undefined);
      }
      return 0;
    });
  },
};

/** What the picture pass did, in a line: `Pictures: 12 taken, 3 unchanged, 1 failed, 0 removed.` */
function picturesLine(p: PicturePassSummary): string {
  const deferred = p.deferred ? `, ${p.deferred} left for the next pass (out of time)` : "";
  return `Pictures: ${p.fetched} taken, ${p.notModified} unchanged, ${p.failed} failed (tried again later)${deferred}, ${p.removed} no longer used removed.`;
}
