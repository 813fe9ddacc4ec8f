import { spawnSync } from "node:child_process";
import { withoutSiteSettings } from "../scripts/site-settings.js";

/**
 * The environment of a benchmarked site: the production build over the bundled sample feeds on its
 * own port and data directory, with ads and embeds as placeholders, whatever the calling shell has set.
 */
export function siteEnv(
  port: number,
  dataDir: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...withoutSiteSettings(process.env),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    FEEDS_FILE: "config/feeds.sample.json",
    INGEST_INTERVAL_MINUTES: "0",
    // Request logs at info would measure logging.
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/** The sample feeds, stored by `news ingest --force` into the database `env` names. */
export function loadSampleFeeds(env: NodeJS.ProcessEnv): void {
  const ingest = spawnSync(
    process.execPath,
    ["--import", "tsx", "cli/news.ts", "ingest", "--force"],
    { stdio: ["ignore", "ignore", "inherit"], env },
  );
  if (ingest.status !== 0) throw new Error("loading the sample feeds failed");
}
