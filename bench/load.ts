/**
 * `npm run bench:load`: requests per second and latency of the production build over the bundled
 * sample feeds (home, a category, an article, the archives), side by side with nginx serving a saved
 * copy of the same bytes precompressed (`gzip_static`), the upper bound on this machine; then the
 * server's memory after that load, and the home page with the page cache switched off.
 * Run `npm run build` first. Needs wrk and nginx (installed with apt when run as root).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { adminQuery } from "../server/db/admin";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";
import { ingestFeeds, metricsAuthorization, sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../scripts/web-process.js";
import { parseWrk, socketErrors } from "../resilience/wrk";

const PORT = Number(process.env.BENCH_PORT ?? 3500);
const NGINX_PORT = PORT + 1;
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TARGET = { ratio: 0.4, p99Ms: 50, uncachedRps: 300, rssMb: 250 };
const ORIGIN = `http://127.0.0.1:${PORT}`;

interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses with a status of 400 or more (wrk's "Non-2xx or 3xx"). */
  non2xx: number;
  /** connect, read, write and timeout errors. */
  socketErrors: number;
  /** CPU seconds the server (all its processes) used during the run, per wall second. */
  serverCpu: number;
  /** CPU seconds the load generator used during the run, per wall second. */
  clientCpu: number;
}

// --- Tools -----------------------------------------------------------------------------------------

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** wrk and nginx, installed with apt when missing and this is root on a Debian-like system. */
function ensureTools(): { wrk: boolean; nginx: boolean } {
  const missing = ["wrk", "nginx"].filter((command) => !has(command));
  if (missing.length > 0 && process.getuid?.() === 0 && has("apt-get")) {
    console.log(`Installing ${missing.join(" and ")} with apt-get…`);
    spawnSync(
      "sh",
      ["-c", `apt-get update -qq && apt-get install -y -qq ${missing.join(" ")} >/dev/null`],
      { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } },
    );
  }
  const tools = { wrk: has("wrk"), nginx: has("nginx") };
  if (!tools.wrk) {
    console.log("wrk not found (install: apt-get install wrk): falling back to npx autocannon.");
  }
  if (!tools.nginx) {
    console.log("nginx not found (install: apt-get install nginx): no upper bound measured.");
  }
  return tools;
}

/** The direct children of a process (nginx's workers, the supervisor's web processes). */
function childPids(pid: number): number[] {
  const list = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return list ? list.split(/\s+/).map(Number) : [];
}

/** Clock ticks of CPU a process and (with `children`) its direct children used so far. */
function cpuTicks(pid: number, children = false): number {
  const own = (id: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      // utime and stime: fields 14 and 15 of the file, 12 and 13 after the command name.
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  let ticks = own(pid);
  if (children) {
    for (const child of childPids(pid)) ticks += own(child);
  }
  return ticks;
}

/** CPU ticks of this process's waited-for children (wrk runs as one). */
function childrenTicks(): number {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  return Number(fields[13]) + Number(fields[14]);
}

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/** One load run against `url`; `serverPid` is measured for CPU (with its children for nginx). */
function load(
  url: string,
  serverPid: number,
  serverChildren: boolean,
  useWrk: boolean,
  seconds = SECONDS,
): LoadResult {
  const serverBefore = cpuTicks(serverPid, serverChildren);
  const clientBefore = childrenTicks();
  const started = Date.now();
  let parsed: Omit<LoadResult, "serverCpu" | "clientCpu">;
  if (useWrk) {
    const run = spawnSync(
      "wrk",
      ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-H", "Accept-Encoding: gzip", url],
      { encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
    const result = parseWrk(run.stdout);
    parsed = {
      rps: result.rps,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      non2xx: result.non2xx3xx,
      socketErrors: socketErrors(result),
    };
  } else {
    const run = spawnSync(
      "npx",
      [
        "--yes",
        "autocannon@8",
        "--json",
        "-c",
        String(CONNECTIONS),
        "-d",
        String(seconds),
        "-H",
        "Accept-Encoding=gzip",
        url,
      ],
      { encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
    );
    if (run.status !== 0) throw new Error(`autocannon failed: ${run.stderr}`);
    const json = JSON.parse(run.stdout) as {
      requests: { average: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
      timeouts: number;
    };
    parsed = {
      rps: json.requests.average,
      p50Ms: json.latency.p50,
      p99Ms: json.latency.p99,
      non2xx: json.non2xx,
      socketErrors: json.errors + json.timeouts,
    };
  }
  const wall = (Date.now() - started) / 1000;
  const perSecond = (ticks: number) => ticks / TICKS_PER_SECOND / wall;
  return {
    ...parsed,
    serverCpu: perSecond(cpuTicks(serverPid, serverChildren) - serverBefore),
    clientCpu: perSecond(childrenTicks() - clientBefore),
  };
}

// --- The site --------------------------------------------------------------------------------------

/** Children this script stops itself; any other exit of a server during the run is reported. */
const stopping = new Set<ChildProcess>();

async function startSite(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // node itself on the compiled server, as `npm start` runs it, not through npm: its pid is the server's, for /proc.
  const child = spawn(process.execPath, WEB_PROCESS_ARGS, {
    env: webProcessEnv(env),
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.once("exit", (code, signal) => {
    if (!stopping.has(child)) {
      console.error(
        `The site (pid ${child.pid}) stopped during the run: exit code ${code}, signal ${signal} (code 0 after SIGTERM from elsewhere, as its shutdown handler exits 0).`,
      );
    }
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await get(`${ORIGIN}/`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the site did not answer within 60 s");
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  stopping.add(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/**
 * A GET on a connection of its own (no keep-alive pool, whose idle sockets the server may be
 * closing just then): the body exactly as sent to a client that accepts gzip, and the X-Cache header.
 */
function get(url: string): Promise<{ status: number; body: Buffer; cache: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        url,
        { agent: false, headers: { "accept-encoding": "gzip", ...metricsAuthorization(url) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const raw = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              body: raw,
              cache: String(res.headers["x-cache"] ?? ""),
            });
          });
          res.on("error", reject);
        },
      )
      .on("error", reject);
  });
}

const text = async (url: string) => {
  const { body } = await get(url);
  return (body[0] === 0x1f && body[1] === 0x8b ? zlib.gunzipSync(body) : body).toString("utf8");
};

async function metric(name: string): Promise<number> {
  return (await text(`${ORIGIN}/metrics`))
    .split("\n")
    .filter((line) => line.startsWith(name))
    .reduce((n, line) => n + Number(line.split(" ").pop()), 0);
}

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

// --- nginx -----------------------------------------------------------------------------------------

function startNginx(dir: string): ChildProcess {
  const conf = path.join(dir, "nginx.conf");
  const temp = (name: string) => path.join(dir, name);
  fs.writeFileSync(
    conf,
    `worker_processes 2;
pid ${temp("nginx.pid")};
error_log ${temp("error.log")} warn;
events { worker_connections 1024; }
http {
  types { text/html html; }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip_static on;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${temp("www")};
  }
}
`,
  );
  return spawn("nginx", ["-c", conf, "-p", dir, "-g", "daemon off;"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}

async function waitFor(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      if ((await get(url)).status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer`);
}

// --- Run -------------------------------------------------------------------------------------------

if (!fs.existsSync("build/server/index.js")) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}
const tools = ensureTools();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
const dataDir = path.join(work, "data");
/** PostgreSQL for the several-process setup: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const benchDatabase = `news_bench_${process.pid}`;
let site: ChildProcess | undefined;
let nginx: ChildProcess | undefined;
const cleanUp = async () => {
  await stop(site);
  await stop(nginx);
  if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
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
  env: NodeJS.ProcessEnv;
  processes: number;
}

interface PageRun {
  setup: string;
  name: string;
  path: string;
  gzipBytes: number;
  ours: LoadResult;
  nginx: LoadResult | null;
  renders: number;
  cacheAfter: string;
}
interface UncachedRun extends LoadResult {
  setup: string;
  caches: string;
  renders: number;
}

/** The uncached home page's runs: the page cache off, then the read cache too. */
const UNCACHED_VARIANTS = [
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
const clusterRss: number[] = [];

/** The RSS of the site's web processes: the process itself, or the workers of a supervisor. */
function webProcessPids(child: ChildProcess, processes: number): number[] {
  const pid = child.pid ?? 0;
  return processes === 1 ? [pid] : childPids(pid);
}

try {
  const setups: Setup[] = [
    { name: "1 process, PGlite", env: sampleSiteEnv(PORT, dataDir), processes: 1 },
  ];
  if (adminUrl) {
    await adminQuery(adminUrl, `CREATE DATABASE ${benchDatabase}`);
    const url = new URL(adminUrl);
    url.pathname = `/${benchDatabase}`;
    setups.push({
      name: "2 processes, PostgreSQL",
      env: sampleSiteEnv(PORT, dataDir, { DATABASE_URL: url.toString(), WEB_CONCURRENCY: "2" }),
      processes: 2,
    });
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
    console.log(`${setup.name}: loading the sample feeds into a fresh database…`);
    if (!ingestFeeds(setup.env)) throw new Error("loading the sample feeds failed");
    site = await startSite(setup.env);
    const sitePid = site.pid ?? 0;
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
        nginx = startNginx(work);
        await waitFor(`http://127.0.0.1:${NGINX_PORT}/home.html`);
        nginxPid = nginx.pid ?? 0;
      }
    }

    // A short warm-up so the first measured page does not pay for the JIT's first minutes.
    console.log(`${setup.name}: warming up (5 s)…`);
    load(`${ORIGIN}/`, sitePid, withChildren, tools.wrk, 5);

    for (const page of pages) {
      console.log(`${setup.name}: loading ${page.path} (${SECONDS} s), then nginx's copy…`);
      const rendersBefore = await metric("page_renders_total");
      const ours = load(`${ORIGIN}${page.path}`, sitePid, withChildren, tools.wrk);
      const renders = (await metric("page_renders_total")) - rendersBefore;
      const { cache } = await get(`${ORIGIN}${page.path}`);
      const upper = tools.nginx
        ? load(`http://127.0.0.1:${NGINX_PORT}/${page.name}.html`, nginxPid, true, tools.wrk)
        : null;
      runs.push({
        setup: setup.name,
        ...page,
        gzipBytes: sizes.get(page.name) ?? 0,
        ours,
        nginx: upper,
        renders,
        cacheAfter: cache,
      });
    }
    if (setup.processes === 1) {
      rssAfterLoad = rssMb(sitePid);
      peakAfterLoad = peakRssMb(sitePid);
    } else {
      clusterRss.push(...webProcessPids(site, setup.processes).map(rssMb));
    }
    await stop(site);

    // Every render afresh: with the read cache as the site runs (a page cache miss), then with no
    // cache at all, so each loader asks the database.
    for (const caches of UNCACHED_VARIANTS) {
      console.log(`${setup.name}: loading / with ${caches.label} (${SECONDS} s)…`);
      try {
        site = await startSite({ ...setup.env, ...caches.env });
        load(`${ORIGIN}/`, site.pid ?? 0, withChildren, tools.wrk, 5);
        const rendersBefore = await metric("page_renders_total");
        const result = load(`${ORIGIN}/`, site.pid ?? 0, withChildren, tools.wrk);
        uncachedRuns.push({
          ...result,
          setup: setup.name,
          caches: caches.label,
          renders: (await metric("page_renders_total")) - rendersBefore,
        });
      } catch (error) {
        uncachedErrors.push(`${setup.name}, ${caches.label}: ${(error as Error).message}`);
        console.error(`The uncached run failed: ${(error as Error).message}`);
      } finally {
        await stop(site);
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
const rows: (string | number)[][] = [];
for (const run of runs) {
  const ratio = run.nginx ? run.ours.rps / run.nginx.rps : NaN;
  const what = `${run.name}, ${run.setup}`;
  rows.push([
    `${run.name} (\`${run.path.length > 40 ? `${run.path.slice(0, 37)}…` : run.path}\`), ${(run.gzipBytes / 1024).toFixed(1)} KB gzip`,
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
const memory = `Server RSS (VmRSS of the node process) after the cached load, 1 process: ${rssAfterLoad.toFixed(0)} MB (peak VmHWM ${peakAfterLoad.toFixed(0)} MB)${clusterRss.length > 0 ? `; 2 processes: ${clusterRss.map((mb) => `${mb.toFixed(0)} MB`).join(" and ")} (each web process; the supervisor holds no pages)` : ""}.`;
const tool = tools.wrk
  ? `\`wrk -t2 -c${CONNECTIONS} -d${SECONDS}s --latency -H 'Accept-Encoding: gzip'\``
  : `autocannon (wrk was not installed), ${CONNECTIONS} connections, ${SECONDS} s, \`Accept-Encoding: gzip\``;
const body = `Machine: ${machineLine()}

${table}

${memory}

${[...verdicts, ...setupsNotRun].map((line) => `- ${line}`).join("\n")}

${tool} per row, on 127.0.0.1, against the production build (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, the bundled sample feeds) in each setup on a fresh database: one process on PGlite, as \`npm start\` runs without \`DATABASE_URL\`, and two web processes behind their supervisor on PostgreSQL (\`WEB_CONCURRENCY=2\`); after a 5 s warm-up; nginx (2 workers, \`gzip_static on\`, access log off, keep-alive unlimited as Node's) serves each page's bytes saved from our server as \`.html\` + \`.html.gz\`, measured right after ours in the same run. The servers and wrk share the machine's ${os.cpus().length} cores, with whatever else runs on it (load average ${loadBefore.toFixed(1)} when the run began): the CPU column is per cent of one core, and wrk's share is taken from what either server could use. Each of our web processes runs one JavaScript thread (the CPU column adds up the supervisor and its processes); nginx runs two workers. Renders are counted from \`/metrics\` (a cached page is rendered again when its 60 s expire); the X-Cache shown is that of a request right after the run. For reference only, not measured here: nginx \`gzip_static\` was reported at ~42–47k requests/s on this machine earlier, WordPress behind nginx \`fastcgi_cache\` ~4.6–6k, Ghost 17–20 and WordPress without a cache 28.`;
console.log(`\n${body}\n`);
await writeSection(
  "load",
  "Throughput, latency and memory under load (`npm run bench:load`)",
  body,
);
