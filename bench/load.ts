/**
 * `npm run bench:load`: requests per second and latency of the production build over the bundled
 * sample feeds (home, a category, an article, the archives), side by side with nginx serving a saved
 * copy of the same bytes precompressed (`gzip_static`), the upper bound on this machine; then the
 * server's memory after that load, and the home page with the page cache switched off.
 *
 * `BENCH_LOAD_AGAINST=/path/to/other/checkout` (built with `npm run build`) starts that checkout's
 * web process too, with its own sample data and port, and loads each page on both, run for run
 * alternating with this one, so a change is measured side by side with the code before it.
 * Run `npm run build` first. Needs wrk and nginx (installed with apt when run as root).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { adminQuery } from "../server/db/admin";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";
import { startNginx } from "./load/nginx";
import {
  CONNECTIONS,
  SECONDS,
  childPids,
  ensureTools,
  load,
  medianResult,
  type LoadResult,
} from "./load/runner";
import {
  get,
  ingestInto,
  metric,
  openCheckout,
  startSite,
  stop,
  text,
  waitFor,
  type Checkout,
} from "./load/site";

const PORT = Number(process.env.BENCH_PORT ?? 3500);
const NGINX_PORT = PORT + 1;
const AGAINST_PORT = PORT + 3;
const AGAINST = process.env.BENCH_LOAD_AGAINST;
/** Runs per page and server, alternating between the checkouts; the median run is reported. */
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? (AGAINST ? 3 : 1));
const TARGET = { ratio: 0.4, p99Ms: 50, uncachedRps: 300, rssMb: 250 };
const ORIGIN = `http://127.0.0.1:${PORT}`;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

// --- Baselines: what any Node server, and Express alone, can do with the same bytes -------------

const BASELINE_PORT = PORT + 2;
const BASELINE = `
const fs = require("node:fs");
const http = require("node:http");
const body = fs.readFileSync(process.env.BODY_FILE);
const headers = { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Content-Length": body.length };
if (process.env.MODE === "express") {
  const app = require("express")();
  app.get("/", (_req, res) => { res.set(headers); res.end(body); });
  app.listen(${BASELINE_PORT}, "127.0.0.1");
} else {
  http.createServer((_req, res) => { res.writeHead(200, headers); res.end(body); }).listen(${BASELINE_PORT}, "127.0.0.1");
}`;

/** A one-route server answering every GET with the saved gzip bytes: bare node:http or Express 5. */
async function startBaseline(mode: "node" | "express", bodyFile: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", BASELINE], {
    env: { ...process.env, NODE_ENV: "production", MODE: mode, BODY_FILE: bodyFile },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitFor(`http://127.0.0.1:${BASELINE_PORT}/`);
  return child;
}

// --- Run -------------------------------------------------------------------------------------------

for (const dir of [".", ...(AGAINST ? [AGAINST] : [])]) {
  if (!fs.existsSync(path.join(dir, "build/server/index.js"))) {
    console.error(
      `No production build in ${path.resolve(dir)}: run \`npm run build\` there first.`,
    );
    process.exit(1);
  }
}
const tools = ensureTools();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
/** PostgreSQL for the several-process setup: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const benchDatabase = `news_bench_${process.pid}`;
/** This checkout, then BENCH_LOAD_AGAINST's: each with its own data directory, database and port. */
const checkouts: Checkout[] = [
  await openCheckout({
    name: "ours",
    dir: ".",
    port: PORT,
    dataDir: path.join(work, "data"),
    database: benchDatabase,
  }),
];
if (AGAINST) {
  checkouts.push(
    await openCheckout({
      name: path.basename(path.resolve(AGAINST)),
      dir: AGAINST,
      port: AGAINST_PORT,
      dataDir: path.join(work, "data-against"),
      database: `${benchDatabase}_against`,
    }),
  );
}
const theirName = checkouts[1]?.name ?? "";

/** A checkout's web process, running. */
interface Site {
  checkout: Checkout;
  child: ChildProcess;
}
let sites: Site[] = [];
let nginx: ChildProcess | undefined;
const stopSites = async () => {
  await Promise.all(sites.map(({ child }) => stop(child)));
  sites = [];
};
const cleanUp = async () => {
  await stopSites();
  await stop(nginx);
  if (adminUrl) {
    for (const { database } of checkouts) {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  }
  fs.rmSync(work, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

/**
 * How the site runs: one process on the embedded database (`npm start` without DATABASE_URL), and,
 * when a PostgreSQL server is at hand, two web processes on it (WEB_CONCURRENCY=2).
 */
interface Setup {
  name: string;
  processes: number;
}

/** A checkout's environment in a setup, with `extra` settings. */
function siteEnv(setup: Setup, checkout: Checkout, extra: Record<string, string> = {}) {
  const cluster: Record<string, string> = {};
  if (setup.processes > 1 && adminUrl) {
    const url = new URL(adminUrl);
    url.pathname = `/${checkout.database}`;
    Object.assign(cluster, { DATABASE_URL: url.toString(), WEB_CONCURRENCY: "2" });
  }
  return checkout.sample.sampleSiteEnv(checkout.port, checkout.dataDir, { ...cluster, ...extra });
}

/** Starts every checkout's site in `setup`, with `extra` settings. */
async function startSites(setup: Setup, extra: Record<string, string> = {}): Promise<void> {
  for (const checkout of checkouts) {
    sites.push({ checkout, child: await startSite(checkout, siteEnv(setup, checkout, extra)) });
  }
}

/**
 * ROUNDS loads of `urlPath` on every running site, alternating between them (ours, theirs, ours,
 * theirs…) so that the machine's other load falls on both alike: each site's median run, and the
 * pages it rendered during its runs.
 */
async function loadSites(urlPath: string, withChildren: boolean) {
  const counted = () =>
    Promise.all(sites.map(({ checkout }) => metric(checkout.origin, "page_renders_total")));
  const before = await counted();
  const results = sites.map((): LoadResult[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { checkout, child }] of sites.entries()) {
      const run = load(`${checkout.origin}${urlPath}`, child.pid ?? 0, withChildren, tools.wrk);
      console.log(`  ${checkout.name}: ${Math.round(run.rps)} requests/s, p99 ${run.p99Ms} ms`);
      results[index]?.push(run);
    }
  }
  const after = await counted();
  return results.map((runs, index) => ({
    result: medianResult(runs),
    renders: (after[index] ?? 0) - (before[index] ?? 0),
  }));
}

interface PageRun {
  setup: string;
  name: string;
  path: string;
  gzipBytes: number;
  ours: LoadResult;
  /** BENCH_LOAD_AGAINST's, measured alternating with ours. */
  theirs: LoadResult | null;
  nginx: LoadResult | null;
  renders: number;
  cacheAfter: string;
}
interface UncachedRun extends LoadResult {
  setup: string;
  caches: string;
  renders: number;
  theirs: LoadResult | null;
}

/** The uncached home page's runs: the page cache off, then the read cache too. */
const UNCACHED_VARIANTS: { label: string; env: Record<string, string> }[] = [
  { label: "PAGE_CACHE_MB=0", env: { PAGE_CACHE_MB: "0" } },
  { label: "PAGE_CACHE_MB=0 READ_CACHE_MB=0", env: { PAGE_CACHE_MB: "0", READ_CACHE_MB: "0" } },
];
const runs: PageRun[] = [];
const uncachedRuns: UncachedRun[] = [];
const uncachedErrors: string[] = [];
const setupsNotRun: string[] = [];
const baselines: { mode: "node" | "express"; result: LoadResult }[] = [];
const loadBefore = os.loadavg()[0] ?? 0;
let rssAfterLoad = NaN;
let peakAfterLoad = NaN;
let theirRssAfterLoad = NaN;
const clusterRss: number[] = [];

/** The RSS of the site's web processes: the process itself, or the workers of a supervisor. */
function webProcessPids(child: ChildProcess, processes: number): number[] {
  const pid = child.pid ?? 0;
  return processes === 1 ? [pid] : childPids(pid);
}

try {
  const setups: Setup[] = [{ name: "1 process, PGlite", processes: 1 }];
  if (adminUrl) {
    for (const { database } of checkouts) await adminQuery(adminUrl, `CREATE DATABASE ${database}`);
    setups.push({ name: "2 processes, PostgreSQL", processes: 2 });
  } else {
    setupsNotRun.push(
      "2 web processes on PostgreSQL (WEB_CONCURRENCY=2): NOT measured, set BENCH_DATABASE_URL or TEST_DATABASE_URL",
    );
  }

  let pages: { name: string; path: string }[] = [];
  const www = path.join(work, "www");
  const sizes = new Map<string, number>();
  let nginxPid = 0;
  for (const setup of setups) {
    for (const checkout of checkouts) {
      console.log(
        `${setup.name}, ${checkout.name}: loading the sample feeds into a fresh database…`,
      );
      if (!ingestInto(checkout, siteEnv(setup, checkout))) {
        throw new Error(`loading the sample feeds into ${checkout.name} failed`);
      }
    }
    await startSites(setup);
    const withChildren = setup.processes > 1;

    if (pages.length === 0) {
      const home = await text(`${ORIGIN}/`);
      const articlePath = /href="(\/article\/[^"#?]+)"/.exec(home)?.[1];
      if (!articlePath) throw new Error("no /article/... link on the home page");
      pages = [
        { name: "home", path: "/" },
        { name: "category", path: "/local-news" },
        { name: "article", path: articlePath },
        { name: "archives", path: "/archives" },
      ];
      // The upper bound serves each page's bytes as our server sends them, saved as .html + .html.gz.
      fs.mkdirSync(www, { recursive: true });
      for (const page of pages) {
        const { status, body } = await get(`${ORIGIN}${page.path}`);
        if (status !== 200) throw new Error(`${page.path} answered ${status}`);
        fs.writeFileSync(path.join(www, `${page.name}.html`), zlib.gunzipSync(body));
        fs.writeFileSync(path.join(www, `${page.name}.html.gz`), body);
        sizes.set(page.name, body.length);
      }
      // nginx's workers run as nobody: they must be able to read the copies.
      for (const dir of [work, www]) fs.chmodSync(dir, 0o755);
      for (const file of fs.readdirSync(www)) fs.chmodSync(path.join(www, file), 0o644);
      if (tools.nginx) {
        nginx = startNginx(work, NGINX_PORT);
        await waitFor(`http://127.0.0.1:${NGINX_PORT}/home.html`);
        nginxPid = nginx.pid ?? 0;
      }
    }
    // The same sample feeds give the same pages, the article at the same address, on both.
    for (const { checkout } of sites.slice(1)) {
      for (const page of pages) await waitFor(`${checkout.origin}${page.path}`);
    }

    // A short warm-up so the first measured page does not pay for the JIT's first minutes.
    console.log(`${setup.name}: warming up (5 s)…`);
    for (const { checkout, child } of sites) {
      load(`${checkout.origin}/`, child.pid ?? 0, withChildren, tools.wrk, 5);
    }

    for (const page of pages) {
      console.log(
        `${setup.name}: loading ${page.path} (${ROUNDS} × ${SECONDS} s${AGAINST ? `, alternating with ${theirName}` : ""}), then nginx's copy…`,
      );
      const [ours, theirs] = await loadSites(page.path, withChildren);
      if (!ours) throw new Error("our site is not running");
      const { cache } = await get(`${ORIGIN}${page.path}`);
      const upper = tools.nginx
        ? load(`http://127.0.0.1:${NGINX_PORT}/${page.name}.html`, nginxPid, true, tools.wrk)
        : null;
      runs.push({
        setup: setup.name,
        ...page,
        gzipBytes: sizes.get(page.name) ?? 0,
        ours: ours.result,
        theirs: theirs?.result ?? null,
        nginx: upper,
        renders: ours.renders,
        cacheAfter: cache,
      });
    }
    const [ourSite, theirSite] = sites;
    if (setup.processes === 1) {
      rssAfterLoad = rssMb(ourSite?.child.pid ?? 0);
      peakAfterLoad = peakRssMb(ourSite?.child.pid ?? 0);
      if (theirSite) theirRssAfterLoad = rssMb(theirSite.child.pid ?? 0);
    } else if (ourSite) {
      clusterRss.push(...webProcessPids(ourSite.child, setup.processes).map(rssMb));
    }
    await stopSites();

    // Every render afresh: with the read cache as the site runs (a page cache miss), then with no
    // cache at all, so each loader asks the database.
    for (const caches of UNCACHED_VARIANTS) {
      console.log(`${setup.name}: loading / with ${caches.label} (${ROUNDS} × ${SECONDS} s)…`);
      try {
        await startSites(setup, caches.env);
        for (const { checkout, child } of sites) {
          load(`${checkout.origin}/`, child.pid ?? 0, withChildren, tools.wrk, 5);
        }
        const [ours, theirs] = await loadSites("/", withChildren);
        if (!ours) throw new Error("our site is not running");
        uncachedRuns.push({
          ...ours.result,
          setup: setup.name,
          caches: caches.label,
          renders: ours.renders,
          theirs: theirs?.result ?? null,
        });
      } catch (error) {
        uncachedErrors.push(`${setup.name}, ${caches.label}: ${(error as Error).message}`);
        console.error(`The uncached run failed: ${(error as Error).message}`);
      } finally {
        await stopSites();
      }
    }
  }

  // Where the gap to nginx comes from: the same home page bytes from a bare Node server and Express.
  for (const mode of ["node", "express"] as const) {
    console.log(`Loading the home page's bytes from bare ${mode} (${SECONDS} s)…`);
    const child = await startBaseline(mode, path.join(www, "home.html.gz"));
    try {
      baselines.push({
        mode,
        result: load(`http://127.0.0.1:${BASELINE_PORT}/`, child.pid ?? 0, false, tools.wrk),
      });
    } finally {
      await stop(child);
    }
  }
} finally {
  await cleanUp();
}

// --- Report ----------------------------------------------------------------------------------------

const verdicts: string[] = [];
const verdict = (pass: boolean, what: string) => {
  const line = `${pass ? "PASS" : "MISS"}: ${what}`;
  verdicts.push(line);
  return pass;
};
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const cpu = (value: number) => `${Math.round(value * 100)} %`;
const errors = (r: LoadResult) => `${r.non2xx} / ${r.socketErrors}`;
const shortPath = (urlPath: string) => (urlPath.length > 40 ? `${urlPath.slice(0, 37)}…` : urlPath);
const rows: (string | number)[][] = [];
for (const run of runs) {
  const ratio = run.nginx ? run.ours.rps / run.nginx.rps : NaN;
  const what = `${run.name}, ${run.setup}`;
  rows.push([
    `${run.name} (\`${shortPath(run.path)}\`), ${(run.gzipBytes / 1024).toFixed(1)} KB gzip`,
    `ours, ${run.setup} (page cache; ${run.renders} ${run.renders === 1 ? "render" : "renders"} during the run; then X-Cache ${run.cacheAfter})`,
    Math.round(run.ours.rps),
    ms(run.ours.p50Ms),
    ms(run.ours.p99Ms),
    errors(run.ours),
    `${cpu(run.ours.serverCpu)} / ${cpu(run.ours.clientCpu)}`,
    Number.isNaN(ratio) ? "not measured" : `${(ratio * 100).toFixed(0)} %`,
  ]);
  if (run.nginx) {
    rows.push([
      "",
      "nginx `gzip_static`, same bytes",
      Math.round(run.nginx.rps),
      ms(run.nginx.p50Ms),
      ms(run.nginx.p99Ms),
      errors(run.nginx),
      `${cpu(run.nginx.serverCpu)} / ${cpu(run.nginx.clientCpu)}`,
      "100 %",
    ]);
  }
  // One decimal in the verdict: a ratio just under the target must not read as the target itself.
  verdict(
    !Number.isNaN(ratio) && ratio >= TARGET.ratio,
    `${what}: ${Number.isNaN(ratio) ? "no upper bound measured" : `${(ratio * 100).toFixed(1)} % of nginx`} (target ≥ ${TARGET.ratio * 100} %)`,
  );
  verdict(
    run.ours.p99Ms < TARGET.p99Ms,
    `${what}: p99 ${ms(run.ours.p99Ms)} (target < ${TARGET.p99Ms} ms)`,
  );
  verdict(
    run.ours.non2xx + run.ours.socketErrors === 0,
    `${what}: ${run.ours.non2xx} non-2xx, ${run.ours.socketErrors} socket errors (target 0)`,
  );
}
const homeNginx = runs.find((run) => run.name === "home")?.nginx;
for (const [index, { mode, result }] of baselines.entries()) {
  rows.push([
    index === 0 ? "home's bytes, for comparison" : "",
    mode === "node"
      ? "bare `node:http` server, one route, same bytes"
      : "bare Express 5 app, one route, same bytes",
    Math.round(result.rps),
    ms(result.p50Ms),
    ms(result.p99Ms),
    errors(result),
    `${cpu(result.serverCpu)} / ${cpu(result.clientCpu)}`,
    homeNginx ? `${((result.rps / homeNginx.rps) * 100).toFixed(0)} %` : "",
  ]);
}
for (const [index, run] of uncachedRuns.entries()) {
  rows.push([
    index === 0 ? "home (`/`), no page cache" : "",
    `ours, ${run.setup}, ${run.caches} (${run.renders} renders during the run)`,
    Math.round(run.rps),
    ms(run.p50Ms),
    ms(run.p99Ms),
    errors(run),
    `${cpu(run.serverCpu)} / ${cpu(run.clientCpu)}`,
    "",
  ]);
  verdict(
    run.rps >= TARGET.uncachedRps,
    `uncached home, ${run.setup}, ${run.caches}: ${Math.round(run.rps)} requests/s (target ≥ ${TARGET.uncachedRps})`,
  );
}
for (const error of uncachedErrors) verdict(false, `uncached home: not measured (${error})`);
verdict(
  rssAfterLoad < TARGET.rssMb,
  `server RSS after the load, 1 process: ${rssAfterLoad.toFixed(0)} MB (target < ${TARGET.rssMb} MB)`,
);
const table = formatMarkdownTable(
  [
    "page",
    "server",
    "requests/s",
    "p50",
    "p99",
    "errors (non-2xx / socket)",
    "CPU: server / wrk",
    "of nginx",
  ],
  rows,
);
const memory = `Server RSS (VmRSS of the node process) after the cached load, 1 process: ${rssAfterLoad.toFixed(0)} MB (peak VmHWM ${peakAfterLoad.toFixed(0)} MB)${clusterRss.length > 0 ? `; 2 processes: ${clusterRss.map((mb) => `${mb.toFixed(0)} MB`).join(" and ")} (each web process; the supervisor holds no pages)` : ""}${AGAINST ? `; against ${theirName}, 1 process: ${theirRssAfterLoad.toFixed(0)} MB` : ""}.`;

/** BENCH_LOAD_AGAINST's figures beside ours, measured alternating with them. */
const pct = (ours: number, theirs: number) => `${((ours / theirs) * 100).toFixed(0)} %`;
const sideRow = (page: string, setup: string, ours: LoadResult, theirs: LoadResult) => [
  page,
  setup,
  Math.round(ours.rps),
  Math.round(theirs.rps),
  pct(ours.rps, theirs.rps),
  ms(ours.p99Ms),
  ms(theirs.p99Ms),
  pct(ours.p99Ms, theirs.p99Ms),
  `${errors(ours)}, ${errors(theirs)}`,
];
const sideRows: (string | number)[][] = [];
for (const run of runs) {
  if (!run.theirs) continue;
  const page = `${run.name} (\`${shortPath(run.path)}\`)`;
  sideRows.push(sideRow(page, `${run.setup}, page cache`, run.ours, run.theirs));
}
for (const run of uncachedRuns) {
  if (run.theirs)
    sideRows.push(sideRow("home (`/`)", `${run.setup}, ${run.caches}`, run, run.theirs));
}
const sideBySide = AGAINST
  ? `Side by side with \`${path.resolve(AGAINST)}\` (\`BENCH_LOAD_AGAINST\`), its own production build started the same way (its own scripts, sample feeds, data directory and port ${AGAINST_PORT}), each page loaded on ours and theirs in turn, ours, theirs, ours, theirs…, ${ROUNDS} runs each, so the machine's other load falls on both alike; the median of each figure over its runs. Ours / theirs above 100 % in requests/s, or below 100 % in p99, is ours faster.

${formatMarkdownTable(
  [
    "page",
    "setup",
    "ours: requests/s",
    `${theirName}: requests/s`,
    "ours / theirs",
    "ours: p99",
    `${theirName}: p99`,
    "ours / theirs",
    "errors (non-2xx / socket): ours, theirs",
  ],
  sideRows,
)}

`
  : "";
const tool = tools.wrk
  ? `\`wrk -t2 -c${CONNECTIONS} -d${SECONDS}s --latency -H 'Accept-Encoding: gzip'\``
  : `autocannon (wrk was not installed), ${CONNECTIONS} connections, ${SECONDS} s, \`Accept-Encoding: gzip\``;
const body = `Machine: ${machineLine()}

${table}

${sideBySide}${memory}

${[...verdicts, ...setupsNotRun].map((line) => `- ${line}`).join("\n")}

${tool} ${ROUNDS > 1 ? `per run; ours the median of ${ROUNDS} runs a row (renders counted over all of them), nginx and the bare servers one run` : "per row"}, on 127.0.0.1, against the production build (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, the bundled sample feeds) in each setup on a fresh database: one process on PGlite, as \`npm start\` runs without \`DATABASE_URL\`, and two web processes behind their supervisor on PostgreSQL (\`WEB_CONCURRENCY=2\`); after a 5 s warm-up; nginx (2 workers, \`gzip_static on\`, access log off, keep-alive unlimited as Node's) serves each page's bytes saved from our server as \`.html\` + \`.html.gz\`, measured right after ours in the same run. The servers and wrk share the machine's ${os.cpus().length} cores, with whatever else runs on it (load average ${loadBefore.toFixed(1)} when the run began): the CPU column is per cent of one core, and wrk's share is taken from what either server could use. Each of our web processes runs one JavaScript thread (the CPU column adds up the supervisor and its processes); nginx runs two workers. Renders are counted from \`/metrics\` (a cached page is rendered again when its 60 s expire); the X-Cache shown is that of a request right after the run. For reference only, not measured here: nginx \`gzip_static\` was reported at ~42–47k requests/s on this machine earlier, WordPress behind nginx \`fastcgi_cache\` ~4.6–6k, Ghost 17–20 and WordPress without a cache 28.`;
console.log(`\n${body}\n`);
await writeSection(
  "load",
  "Throughput, latency and memory under load (`npm run bench:load`)",
  body,
);
