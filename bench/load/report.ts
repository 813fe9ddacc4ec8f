/** bench:load's report: the tables, the verdicts against its targets, and how it was measured. */
import os from "node:os";
import path from "node:path";
import { formatMarkdownTable, machineLine } from "../../server/test-support/report";
import { CONNECTIONS, SECONDS, type LoadResult } from "./runner";

const TARGET = { ratio: 0.4, p99Ms: 50, uncachedRps: 300, rssMb: 250 };

export interface PageRun {
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
export interface UncachedRun extends LoadResult {
  setup: string;
  caches: string;
  renders: number;
  theirs: LoadResult | null;
}

/** What a run of bench:load measured, and how it ran. */
export interface LoadFigures {
  runs: PageRun[];
  uncachedRuns: UncachedRun[];
  uncachedErrors: string[];
  setupsNotRun: string[];
  baselines: { mode: "node" | "express"; result: LoadResult }[];
  /** The machine's load average when the run began. */
  loadBefore: number;
  rssAfterLoad: number;
  peakAfterLoad: number;
  theirRssAfterLoad: number;
  clusterRss: number[];
  /** BENCH_LOAD_AGAINST: the other checkout's folder, its port and name. */
  against: string | undefined;
  againstPort: number;
  theirName: string;
  /** Runs per page and server. */
  rounds: number;
  /** Whether wrk, not autocannon, made the load. */
  wrk: boolean;
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const cpu = (value: number) => `${Math.round(value * 100)} %`;
const errors = (r: LoadResult) => `${r.non2xx} / ${r.socketErrors}`;
const shortPath = (urlPath: string) => (urlPath.length > 40 ? `${urlPath.slice(0, 37)}…` : urlPath);

/** The report's Markdown body. */
export function loadReport(figures: LoadFigures): string {
  const {
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
    against,
    againstPort,
    theirName,
    rounds,
    wrk,
  } = figures;
  const verdicts: string[] = [];
  const verdict = (pass: boolean, what: string) => {
    const line = `${pass ? "PASS" : "MISS"}: ${what}`;
    verdicts.push(line);
    return pass;
  };
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
  const memory = `Server RSS (VmRSS of the node process) after the cached load, 1 process: ${rssAfterLoad.toFixed(0)} MB (peak VmHWM ${peakAfterLoad.toFixed(0)} MB)${clusterRss.length > 0 ? `; 2 processes: ${clusterRss.map((mb) => `${mb.toFixed(0)} MB`).join(" and ")} (each web process; the supervisor holds no pages)` : ""}${against ? `; against ${theirName}, 1 process: ${theirRssAfterLoad.toFixed(0)} MB` : ""}.`;

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
  const sideBySide = against
    ? `Side by side with \`${path.resolve(against)}\` (\`BENCH_LOAD_AGAINST\`), its own production build started the same way (its own scripts, sample feeds, data directory and port ${againstPort}), each page loaded on ours and theirs in turn, ours, theirs, ours, theirs…, ${rounds} runs each, so the machine's other load falls on both alike; the median of each figure over its runs. Ours / theirs above 100 % in requests/s, or below 100 % in p99, is ours faster.

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
  const tool = wrk
    ? `\`wrk -t2 -c${CONNECTIONS} -d${SECONDS}s --latency -H 'Accept-Encoding: gzip'\``
    : `autocannon (wrk was not installed), ${CONNECTIONS} connections, ${SECONDS} s, \`Accept-Encoding: gzip\``;
  const body = `Machine: ${machineLine()}

${table}

${sideBySide}${memory}

${[...verdicts, ...setupsNotRun].map((line) => `- ${line}`).join("\n")}

${tool} ${rounds > 1 ? `per run; ours the median of ${rounds} runs a row (renders counted over all of them), nginx and the bare servers one run` : "per row"}, on 127.0.0.1, against the production build (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, the bundled sample feeds) in each setup on a fresh database: one process on PGlite, as \`npm start\` runs without \`DATABASE_URL\`, and two web processes behind their supervisor on PostgreSQL (\`WEB_CONCURRENCY=2\`); after a 5 s warm-up; nginx (2 workers, \`gzip_static on\`, access log off, keep-alive unlimited as Node's) serves each page's bytes saved from our server as \`.html\` + \`.html.gz\`, measured right after ours in the same run. The servers and wrk share the machine's ${os.cpus().length} cores, with whatever else runs on it (load average ${loadBefore.toFixed(1)} when the run began): the CPU column is per cent of one core, and wrk's share is taken from what either server could use. Each of our web processes runs one JavaScript thread (the CPU column adds up the supervisor and its processes); nginx runs two workers. Renders are counted from \`/metrics\` (a cached page is rendered again when its 60 s expire); the X-Cache shown is that of a request right after the run. For reference only, not measured here: nginx \`gzip_static\` was reported at ~42–47k requests/s on this machine earlier, WordPress behind nginx \`fastcgi_cache\` ~4.6–6k, Ghost 17–20 and WordPress without a cache 28.`;
  return body;
}
