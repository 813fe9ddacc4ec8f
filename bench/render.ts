/**
 * `npm run bench:render`: what one uncached page render costs, without HTTP, wrk or the machine's
 * other connections in the way. React Router's request handler on the production server build
 * renders home, a category page, an article and the archives in this process, on the embedded
 * database with the sample feeds; each page is timed in rounds of RENDERS renders, and the median
 * round is reported. A second row per page is its loaders alone (the `.data` request a client
 * navigation makes): the rest of a render is React's.
 *
 * `BENCH_RENDER_AGAINST=/path/to/other/checkout` (built with `npm run build`) renders its build too,
 * round for round alternating with this one, so a change to rendering is measured side by side in
 * one process. Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { register } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";
import { ingestFeeds, sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_FLAGS } from "../scripts/web-process.js";

// Timed with the web process's own V8 flags (its young generation decides how often it collects):
// started without them, this script starts itself again with them.
if (!WEB_PROCESS_FLAGS.every((flag) => process.execArgv.includes(flag))) {
  const again = spawnSync(
    process.execPath,
    [...WEB_PROCESS_FLAGS, "--import", "tsx", ...process.argv.slice(1)],
    { stdio: "inherit" },
  );
  process.exit(again.status ?? 1);
}

const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 8);
const RENDERS = Number(process.env.BENCH_RENDER_COUNT ?? 100);
const WARM_UP = 100;
/** No server listens: the port only names the site's origin, as its pages print it. */
const PORT = 3000;
const ORIGIN = `http://127.0.0.1:${PORT}`;

// As `npm start` runs: React's production build (chosen by NODE_ENV when it is first imported) and
// React Router's, registered as in server/main.ts before anything imports it.
process.env.NODE_ENV = "production";
register(pathToFileURL(path.resolve("server/runtime/production-react-router.js")));
const { createRequestHandler } = await import("react-router");
const { parseConfig } = await import("../server/config");
const { openDatabase } = await import("../server/db/client");
const { createLogger } = await import("../server/logger");
const { latestArticles } = await import("../server/news/repository");
const { readCacheFor } = await import("../server/news/read-cache");
const { cachedPage } = await import("../server/http/page-cache");
const { newNonce } = await import("../server/http/security");

const builds = [
  path.resolve("."),
  ...(process.env.BENCH_RENDER_AGAINST ? [path.resolve(process.env.BENCH_RENDER_AGAINST)] : []),
];
for (const root of builds) {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    console.error(`No build in ${root}: run \`npm run build\` there first.`);
    process.exit(1);
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-bench-render-"));
// The read cache as the site keeps it, unless READ_CACHE_MB says otherwise (0: every loader asks
// the database).
const env = sampleSiteEnv(PORT, dataDir, {
  LOG_LEVEL: "silent",
  ...(process.env.READ_CACHE_MB ? { READ_CACHE_MB: process.env.READ_CACHE_MB } : {}),
});
console.log("Loading the sample feeds into a fresh database…");
if (!ingestFeeds(env)) throw new Error("loading the sample feeds failed");

const config = parseConfig(env);
const database = await openDatabase(config.database, { owner: "the render benchmark" });
const readCache = await readCacheFor(config, database);
const logger = createLogger("silent");
const { pageContext } = await import("./page-context");
// As the page handler gives every render a nonce (a build that reads none ignores it).
const context = { ...pageContext(config, database, logger), cspNonce: newNonce() };

const [newest] = await latestArticles(database.db, { limit: 1 });
if (!newest) throw new Error("no article stored");
const pages = [
  { name: "home", path: "/", data: "/_root.data" },
  { name: "category", path: "/local-news", data: "/local-news.data" },
  { name: "article", path: `/article/${newest.id}`, data: `/article/${newest.id}.data` },
  { name: "archives", path: "/archives", data: "/archives.data" },
];

const handlers = await Promise.all(
  builds.map(async (root) => {
    const build = (await import(
      pathToFileURL(path.join(root, "build/server/index.js")).href
    )) as ServerBuild;
    return { root, handle: createRequestHandler(build, "production") };
  }),
);

/** Renders `pathname` `count` times, one after another; the milliseconds of each, on average. */
async function renders(
  handle: (typeof handlers)[number]["handle"],
  pathname: string,
  count: number,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const response = await handle(new Request(`${ORIGIN}${pathname}`), context);
    if (response.status !== 200) throw new Error(`${pathname} answered ${response.status}`);
    await response.text();
  }
  return (performance.now() - started) / count;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

const rows: (string | number)[][] = [];
const compressRows: (string | number)[][] = [];
/** Rounds of compressing each page at each brotli level (the median is shown). */
const COMPRESS_ROUNDS = 9;
try {
  for (const page of pages) {
    for (const what of ["page", "data"] as const) {
      const pathname = what === "page" ? page.path : page.data;
      for (const { handle } of handlers) await renders(handle, pathname, WARM_UP);
      const times = handlers.map((): number[] => []);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, { handle }] of handlers.entries()) {
          times[index]?.push(await renders(handle, pathname, RENDERS));
        }
      }
      const [ours = [], theirs] = times;
      const row = [
        what === "page"
          ? `${page.name} (\`${page.path.length > 40 ? `${page.path.slice(0, 40)}…` : page.path}\`)`
          : "",
        what === "page" ? "whole page" : "loaders only (`.data`)",
        `${median(ours).toFixed(2)} ms`,
        `${Math.min(...ours).toFixed(2)} ms`,
      ];
      if (theirs) {
        row.push(
          `${median(theirs).toFixed(2)} ms`,
          `${((median(ours) / median(theirs)) * 100).toFixed(0)} %`,
        );
      }
      rows.push(row);
      console.log(row.join("  "));
    }
  }

  // What a page's first reader waits for besides its render, before the page cache keeps it:
  // both compressions (brotli and gzip at once, on libuv's thread pool), at each brotli level.
  const { handle } = handlers[0] ?? {};
  if (!handle) throw new Error("no build");
  for (const page of pages) {
    const response = await handle(new Request(`${ORIGIN}${page.path}`), context);
    const body = Buffer.from(await response.arrayBuffer());
    const row: (string | number)[] = [`${page.name}`, `${(body.length / 1024).toFixed(1)} KB`];
    for (const best of [false, true]) {
      const times: number[] = [];
      let kept: Awaited<ReturnType<typeof cachedPage>> | undefined;
      for (let round = 0; round < COMPRESS_ROUNDS; round++) {
        const started = performance.now();
        kept = await cachedPage({ status: 200, headers: [], body, varyCookie: false }, 0, { best });
        times.push(performance.now() - started);
      }
      row.push(
        `${median(times).toFixed(1)} ms`,
        `${((kept?.br.length ?? 0) / 1024).toFixed(1)} KB`,
      );
    }
    compressRows.push(row);
    console.log(row.join("  "));
  }
} finally {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const headers = ["page", "what", "median of rounds", "best round"];
if (handlers.length > 1) headers.push(`against ${path.basename(builds[1] ?? "")}`, "ours / theirs");
const table = formatMarkdownTable(headers, rows);
console.log(`\n${table}\n`);
const compressTable = formatMarkdownTable(
  [
    "page",
    "HTML",
    "kept at brotli 9: time",
    "brotli 9 bytes",
    "at brotli 11: time",
    "brotli 11 bytes",
  ],
  compressRows,
);
console.log(`${compressTable}\n`);
await writeSection(
  "render",
  "One uncached render, without HTTP (`npm run bench:render`)",
  `Machine: ${machineLine()}\n\n${table}\n\nReact Router's request handler on the production server build, in one process on the embedded database with the sample feeds, no HTTP server and no page cache, ${readCache ? `with the read cache as the site keeps it (a page's reads are answered from memory after its first render; \`READ_CACHE_MB=0 npm run bench:render\` reads the database every time)` : "with `READ_CACHE_MB=0` (every loader asks the database)"}: ${ROUNDS} rounds of ${RENDERS} renders one after another per row, after ${WARM_UP} to warm up; the median round and the best one, in milliseconds per render. "Loaders only" is the page's \`.data\` request (its loaders and the encoding of their data); the rest of a whole page is React's rendering. An uncached page over HTTP (\`npm run bench:load\`) adds Express, compression and the connection. ${handlers.length > 1 ? "The last two columns are another checkout's build, rendered round for round alternating with this one (`BENCH_RENDER_AGAINST`)." : "Set `BENCH_RENDER_AGAINST` to another built checkout to time its renders alternating with these."}\n\nKeeping a rendered page in the page cache (\`cachedPage\`, server/http/page-cache.ts): its brotli and gzip (level 9) forms made at once on libuv's thread pool, the time the first reader waits for them after the render, median of ${COMPRESS_ROUNDS}; brotli 9 for a page rendered for the first time, 11 for one readers came back to.\n\n${compressTable}`,
);
