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
import { type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { procMb } from "../resilience/processes";
import { adminQuery } from "../server/db/admin";
import { writeSection } from "../server/test-support/report";
import { startBaseline } from "./load/baseline";
import { startNginx } from "./load/nginx";
import { loadReport, type PageRun, type UncachedRun } from "./load/report";
import {
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
const BASELINE_PORT = PORT + 2;
const AGAINST_PORT = PORT + 3;
const AGAINST = process.env.BENCH_LOAD_AGAINST;
/** Runs per page and server, alternating between the checkouts; the median run is reported. */
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? (AGAINST ? 3 : 1));
const ORIGIN = `http://127.0.0.1:${PORT}`;

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
      rssAfterLoad = procMb(ourSite?.child.pid ?? 0, "VmRSS");
      peakAfterLoad = procMb(ourSite?.child.pid ?? 0, "VmHWM");
      if (theirSite) theirRssAfterLoad = procMb(theirSite.child.pid ?? 0, "VmRSS");
    } else if (ourSite) {
      clusterRss.push(
        ...webProcessPids(ourSite.child, setup.processes).map((pid) => procMb(pid, "VmRSS")),
      );
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
    const child = await startBaseline(mode, path.join(www, "home.html.gz"), BASELINE_PORT);
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

const body = loadReport({
  runs,
  uncachedRuns,
  uncachedErrors,
  setupsNotRun,
  baselines,
  loadBefore,
  rssAfterLoad,
  peakAfterLoad,
  theirRssAfterLoad,
  clusterRss,
  against: AGAINST,
  againstPort: AGAINST_PORT,
  theirName,
  rounds: ROUNDS,
  wrk: tools.wrk,
});
console.log(`\n${body}\n`);
await writeSection(
  "load",
  "Throughput, latency and memory under load (`npm run bench:load`)",
  body,
);
