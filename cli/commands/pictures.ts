import { pictureHealth } from "../../server/images/health";
import { makeMissingCopiesAhead } from "../../server/images/copies-ahead";
import { pictureStoreFor, pictureStoreName } from "../../server/images/store-for";
import { createLogger } from "../../server/logger";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable, minute } from "../table";

export const picturesCommand: Command = {
  name: "pictures",
  summary:
    "Show how the feeds' pictures stand: kept, the site's own, waiting, failing (with why and when they are tried again), and the size of the picture folder or bucket.",
  usage: "news pictures [--make-copies]",
  options: {
    "make-copies": {
      type: "boolean",
      description:
        "First make the copies made ahead of time (AVIF, 16:9, 480 and 720 px) for every kept picture that lacks them: once after an upgrade that changed them, so that no first reader waits",
    },
  },
  async run({ values }) {
    return withDatabase("`news pictures`", async (database, config) => {
      const store = pictureStoreFor(config.pictures);
      if (values["make-copies"]) {
        const logger = createLogger(
          ["debug", "trace"].includes(config.logLevel) ? config.logLevel : "warn",
        );
        const { pictures, made } = await makeMissingCopiesAhead({
          database,
          store,
          logger,
        });
        console.log(`Made ${made} copies ahead of time for ${pictures} kept pictures.`);
      }
      const health = await pictureHealth(database.db);
      const bytes = await store.totalBytes();
      const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      console.log(
        `${health.addresses} picture addresses: ${health.kept} kept, ${health.site} the site's own files, ${health.waiting} not fetched yet, ${health.failing} failing.`,
      );
      // A bucket keeps no bound of ours: its lifecycle rule expires copies (decision 022).
      const bound =
        config.pictures.store.kind === "folder"
          ? ` of ${megabytes(config.pictures.maxBytes)}`
          : ", uploads' originals not counted";
      console.log(`${pictureStoreName(config.pictures)}: ${megabytes(bytes)}${bound}.`);
      if (health.failures.length > 0) {
        console.log(
          `\nFailing (their articles show the default picture until a later pass gets them):\n${formatTable(
            ["failures", "picture", "last tried", "next attempt", "last error"],
            health.failures.map((f) => [
              String(f.consecutiveFailures),
              f.url,
              minute(f.checkedAt, "-"),
              minute(f.nextAttemptAt, "-"),
              f.lastError ?? "",
            ]),
          )}`,
        );
      }
      return 0;
    });
  },
};
