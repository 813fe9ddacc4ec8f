// Starts the production build for Playwright on its own port with a fresh embedded database.
// E2E_SITE=hostile serves the hostile-input site instead: feeds and blog posts made from
// fixtures/hostile/payloads.ts into a temporary folder (e2e/hostile.spec.ts). E2E_SITE=newsroom
// serves a second copy of the sample site for the newsroom's tests, whose take-downs, pins and
// corrections would otherwise change the pages other tests read at the same moment. Every site
// has the staff accounts of scripts/e2e-staff.js.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PHOTO_FEED, startPhotoHost } from "./e2e-photos.js";
import { addE2eStaff } from "./e2e-staff.js";
import { ingestFeedsAsync, sampleEmbeds, sampleSiteEnv } from "./sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "./web-process.js";

const hostile = process.env.E2E_SITE === "hostile";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-e2e-"));
// The hostile feeds and blog posts, or the sample site's feeds file with its photo feed.
const sourceDir = fs.mkdtempSync(
  path.join(os.tmpdir(), hostile ? "news-e2e-hostile-" : "news-e2e-feeds-"),
);
const port = process.env.E2E_PORT ?? "3100";
// Newsletter mail as .eml files where e2e/newsletter.spec.ts reads it (e2eOutbox in e2e/outbox.ts).
const outbox = path.join(os.tmpdir(), `news-e2e-outbox-${port}`);
fs.rmSync(outbox, { recursive: true, force: true });

function removeFolders() {
  for (const dir of [dataDir, outbox, sourceDir]) fs.rmSync(dir, { recursive: true, force: true });
}

/** Says why the site cannot start, removes its folders and exits with 1. */
function quit(message) {
  console.error(message);
  removeFolders();
  process.exit(1);
}

if (hostile) {
  const written = spawnSync(
    process.execPath,
    ["--import", "tsx", "fixtures/hostile/write.ts", sourceDir],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (written.status !== 0) {
    quit("Writing the hostile feeds and blog posts for the browser tests failed.");
  }
}

// The tests' own configuration, whatever the calling shell has set (never its DATABASE_URL).
const env = sampleSiteEnv(port, dataDir, {
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // The browser tests post from one address all run long; the rate limit itself is tested over HTTP
  // in server/forms/forms.test.ts. One proxy hop is trusted so tests can speak for other addresses.
  FORM_RATE_LIMIT: "1000",
  TRUST_PROXY_HOPS: "1",
  MAIL_OUTBOX_DIR: outbox,
  ...(hostile
    ? {
        FEEDS_FILE: path.join(sourceDir, "feeds.json"),
        BLOG_SOURCE: "local",
        BLOG_DIR: path.join(sourceDir, "blog"),
        // Each page is opened several times (two widths, with and without the CSP): rendered once.
        PAGE_CACHE_SECONDS: "3600",
        // A video address with no video id, as an operator might mistype one; the other embeds
        // are unset (e2e/embeds.spec.ts checks both states here).
        FEATURED_VIDEO_URL: "https://www.youtube.com/watch?v=not-an-id",
      }
    : {
        // The demo's sample embeds: the video's host is never reached (the tests answer for it),
        // the other embeds are pages of the site itself.
        ...sampleEmbeds(`http://127.0.0.1:${port}`),
        // The sample feeds, Local News' linking photos on a picture host of its own (e2e-photos.js)
        // on this machine, which ingest may fetch from.
        FEEDS_FILE: path.join(sourceDir, "feeds.json"),
        IMAGE_FETCH_ALLOW_PRIVATE: "true",
      }),
});
// The photos' host answers only while ingest fetches them: pages must show our own copies.
const photos = hostile ? null : await startPhotoHost(sourceDir);
if (photos) {
  const feeds = JSON.parse(fs.readFileSync("config/feeds.sample.json", "utf8"));
  // Only the feed with the photos is swapped: the category's other feeds (Local News' second
  // outlet, whose story is grouped with a local one) are read as the sample site reads them.
  feeds[PHOTO_FEED.category] = feeds[PHOTO_FEED.category].map((file) =>
    file === PHOTO_FEED.file ? photos.feedPath : file,
  );
  fs.writeFileSync(path.join(sourceDir, "feeds.json"), JSON.stringify(feeds, null, 2));
}
// The pages are tested over the bundled sample feeds (or the hostile ones), loaded before the site starts.
const ingested = await ingestFeedsAsync(env);
await photos?.close();
if (!ingested) {
  quit(`Loading the ${hostile ? "hostile" : "sample"} feeds for the browser tests failed.`);
}
if (!addE2eStaff(env)) quit("Adding the staff accounts for the browser tests failed.");
// The compiled web process, as `npm start` runs it in production.
if (!fs.existsSync("build/web/main.js")) {
  quit("No build in build/: run `npm run build` before the browser tests.");
}
const child = spawn(process.execPath, WEB_PROCESS_ARGS, {
  stdio: "inherit",
  env: webProcessEnv(env),
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => {
  removeFolders();
  process.exit(code ?? 0);
});
