// A copy of the site that a tool starts for itself (the browser tests' server, the audit, the
// benchmarks and the resilience checks): the production build on 127.0.0.1 over the bundled sample
// feeds, in a data directory of its own, with none of the calling shell's site settings.
import { spawnSync } from "node:child_process";
import { withoutSiteSettings } from "./site-settings.js";

/**
 * The environment of such a copy on `port` with its database in `dataDir`: ads and embeds as
 * placeholders, no scheduled ingest, logs at warn (request logs at info would be measured too).
 * `extra` adds settings or replaces these.
 *
 * @param {number | string} port
 * @param {string} dataDir
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function sampleSiteEnv(port, dataDir, extra = {}) {
  return {
    ...withoutSiteSettings(process.env),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    FEEDS_FILE: "config/feeds.sample.json",
    INGEST_INTERVAL_MINUTES: "0",
    LOG_LEVEL: "warn",
    ...extra,
  };
}

/**
 * Stores the feeds `env` names (`news ingest --force`) into the database it names, before the site
 * starts. True when every step succeeded.
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {boolean}
 */
export function ingestFeeds(env) {
  const ingest = spawnSync(
    process.execPath,
    ["--import", "tsx", "cli/news.ts", "ingest", "--force"],
    { stdio: ["ignore", "ignore", "inherit"], env },
  );
  return ingest.status === 0;
}
