// A copy of the site that a tool starts for itself (the browser tests' server, the audit, the
// benchmarks and the resilience checks): the production build on 127.0.0.1 over the bundled sample
// feeds, in a data directory of its own, with none of the calling shell's site settings.
import { spawn, spawnSync } from "node:child_process";
import { withoutSiteSettings } from "./site-settings.js";

/** The bearer token such a copy's `/metrics` asks for: a sample, for local tools only. */
export const SAMPLE_METRICS_TOKEN = "sample-metrics-token-for-local-tools-only";

/**
 * The Authorization header a tool sends with `url` to such a copy: the sample token for
 * `/metrics`, nothing for any other address.
 *
 * @param {string} url
 * @returns {Record<string, string>}
 */
export function metricsAuthorization(url) {
  return new URL(url, "http://127.0.0.1").pathname === "/metrics"
    ? { authorization: `Bearer ${SAMPLE_METRICS_TOKEN}` }
    : {};
}

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
    METRICS_TOKEN: SAMPLE_METRICS_TOKEN,
    // A copy for a tool sends no digest of its own; its mail stays in its data directory.
    NEWSLETTER_SEND_AT: "off",
    ...extra,
  };
}

/** The sample featured video: "Me at the zoo", filmed at the San Diego Zoo (sampleEmbeds). */
export const SAMPLE_VIDEO_URL = "https://www.youtube.com/watch?v=jNQXAC9IVRw";

/**
 * SAMPLE embed settings for a copy of the site at `siteUrl`, so the demo shows every embed block of
 * the spec: the featured video is a public video, played only when a reader clicks it; the image
 * feed, holiday calendar and feed wall are the site's own sample pages (public/samples/), each
 * saying it is a sample, shown only when a reader asks for them. An operator sets real providers.
 *
 * @param {string} siteUrl
 */
export function sampleEmbeds(siteUrl) {
  const base = siteUrl.replace(/\/+$/, "");
  return {
    FEATURED_VIDEO_URL: SAMPLE_VIDEO_URL,
    IMAGE_FEED_EMBED_URL: `${base}/samples/image-feed.html`,
    HOLIDAY_CALENDAR_EMBED_URL: `${base}/samples/holiday-calendar.html`,
    FEED_WALL_EMBED_URL: `${base}/samples/community-feed.html`,
  };
}

const INGEST_ARGS = ["--import", "tsx", "cli/news.ts", "ingest", "--force"];

/**
 * Stores the feeds `env` names (`news ingest --force`) into the database it names, before the site
 * starts. True when every step succeeded.
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {boolean}
 */
export function ingestFeeds(env) {
  const ingest = spawnSync(process.execPath, INGEST_ARGS, {
    stdio: ["ignore", "ignore", "inherit"],
    env,
  });
  return ingest.status === 0;
}

/**
 * The same, without blocking the caller's event loop while it runs: for a caller that serves what
 * the feeds link to itself (the photo host of the real-photos mode).
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<boolean>}
 */
export function ingestFeedsAsync(env) {
  return new Promise((resolve) => {
    const ingest = spawn(process.execPath, INGEST_ARGS, {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    });
    ingest.once("error", () => resolve(false));
    ingest.once("close", (code) => resolve(code === 0));
  });
}
