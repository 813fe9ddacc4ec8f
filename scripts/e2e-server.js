// Starts the production build for Playwright on its own port with a fresh embedded database.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-e2e-"));
const port = process.env.E2E_PORT ?? "3100";
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  HOST: "127.0.0.1",
  SITE_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  FEEDS_FILE: "config/feeds.sample.json",
  INGEST_INTERVAL_MINUTES: "0",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // The browser tests post from one address all run long; the rate limit itself is tested over HTTP
  // in server/forms/forms.test.ts. One proxy hop is trusted so tests can speak for other addresses.
  FORM_RATE_LIMIT: "1000",
  TRUST_PROXY_HOPS: "1",
  // An embed configured as an operator would; the browser tests never let it reach the network.
  FEATURED_VIDEO_URL: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
};
// The pages are tested over the bundled sample feeds, loaded before the site starts.
const ingest = spawnSync(
  process.execPath,
  ["--import", "tsx", "cli/news.ts", "ingest", "--force"],
  {
    stdio: ["ignore", "ignore", "inherit"],
    env,
  },
);
if (ingest.status !== 0) {
  console.error("Loading the sample feeds for the browser tests failed.");
  process.exit(1);
}
const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
  stdio: "inherit",
  env,
});
const stop = (signal) => child.kill(signal);
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
child.on("exit", (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
