/**
 * Load: the production build over the bundled sample feeds (PGlite) with two streams at once, the
 * home page on RESILIENCE_HOME_CONNECTIONS (200) connections and newsletter signups on
 * RESILIENCE_POST_CONNECTIONS (50), for RESILIENCE_LOAD_SECONDS (60) after a warm-up of
 * RESILIENCE_WARMUP_SECONDS (30: long enough for V8's heap to reach the size it keeps under this
 * load, so that growth after it means a leak). No 5xx, no socket errors, RSS within 20 % of what it
 * was after the warm-up, and every signup that was answered as stored is stored.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatMarkdownTable } from "../server/test-support/report";
import { sampleSiteEnv } from "../scripts/sample-site.js";
import { ms, verdictList, type CheckResult, type Verdict } from "./check";
import { compareSignups, readSignups } from "./load/signups";
import {
  assertPortsFree,
  envNumber,
  get,
  metricSum,
  collectGarbage,
  procCpuTicks,
  procMb,
  sleep,
  startProcess,
  stopChild,
  tail,
  TICKS_PER_SECOND,
  waitForOk,
} from "./processes";
import { ensureWrk, runWrk, socketErrorKinds, socketErrors, type WrkResult } from "./wrk";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../scripts/web-process.js";

const PORT = 5150;
/** The server's inspector, on 127.0.0.1 only: the check asks it for a full collection before each reading. */
const INSPECTOR_PORT = 5151;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const HOME_SCRIPT = path.resolve("resilience/home.lua");
const SIGNUP_SCRIPT = path.resolve("resilience/newsletter.lua");
/** The site's default, set explicitly so a shell's own value cannot change the check. */
const FORM_RATE_LIMIT = 10;
/**
 * Each simulated client address signs up this many addresses: half the limit, so the limiter does
 * its work on every request without being what the check measures. A 429 would be a bug.
 */
const SIGNUPS_PER_ADDRESS = 5;
const MAX_RSS_GROWTH = 0.2;
/**
 * The quiet moment before each RSS reading: the load's sockets close and V8's memory reducer has
 * had its turn (about 8 s after the allocations stop). A full collection follows, so that the
 * reading is what the server holds, not garbage an idle process has not collected yet (a leak
 * survives it; after a quiet moment alone, the same code read 223 MB after the run once and 293 MB
 * in another run, from 205 MB after the warm-up both times).
 */
const SETTLE_MS = 15_000;
/** After the full collection: V8's sweeper threads give the freed pages back. */
const AFTER_GC_MS = 2_000;
/** wrk's default timeout: an answer not complete this long after its request is a socket error. */
const TIMEOUT = "2s";
/** No request may take the server longer than this, from Express receiving it to its last byte. */
const SLOW_SECONDS = 2.5;
/**
 * Each connection's first request waits this long, so that the server has accepted every
 * connection before the load starts. Node (libuv 1.45 and later) accepts one new connection per
 * turn of its event loop, and a turn of a saturated server takes 100–300 ms here: connections
 * opened into a load that is already running wait seconds to be accepted, which measures the
 * connection storm rather than 60 s at 200 + 50 connections (docs/RELIABILITY.md).
 */
const HOLD_MS = 2000;

interface Settings {
  seconds: number;
  warmupSeconds: number;
  homeConnections: number;
  postConnections: number;
}

/**
 * Both streams at once for `seconds` of load (after each connection's first request is held for
 * HOLD_MS); signups carry ids starting with `prefix`.
 */
async function streams(settings: Settings, prefix: string, seconds: number, work: string) {
  const out = path.join(work, `${prefix}.txt`);
  const common = ["--latency", "--timeout", TIMEOUT, `-d${seconds + HOLD_MS / 1000}s`];
  const homeThreads = Math.min(2, settings.homeConnections);
  const [home, post] = await Promise.all([
    runWrk([
      `-t${homeThreads}`,
      `-c${settings.homeConnections}`,
      ...common,
      "-H",
      "Accept-Encoding: gzip",
      "-s",
      HOME_SCRIPT,
      `${ORIGIN}/`,
      "--",
      String(HOLD_MS),
      String(Math.ceil(settings.homeConnections / homeThreads)),
    ]),
    runWrk(
      [
        "-t1",
        `-c${settings.postConnections}`,
        ...common,
        "-s",
        SIGNUP_SCRIPT,
        `${ORIGIN}/`,
        "--",
        prefix,
        ORIGIN,
        String(SIGNUPS_PER_ADDRESS),
        // The warm-up and the run sign up from addresses of their own.
        prefix === "warm" ? "1" : "101",
        String(HOLD_MS),
        String(settings.postConnections),
      ],
      { ...process.env, RESILIENCE_WRK_OUT: out },
    ),
  ]);
  return { home, post, signups: readSignups(out) };
}

function settingsFromEnv(): Settings {
  return {
    seconds: envNumber("RESILIENCE_LOAD_SECONDS", 60),
    warmupSeconds: envNumber("RESILIENCE_WARMUP_SECONDS", 30),
    homeConnections: envNumber("RESILIENCE_HOME_CONNECTIONS", 200),
    postConnections: envNumber("RESILIENCE_POST_CONNECTIONS", 50),
  };
}

/** CPU seconds (user and system) a process has used so far. */
const cpuSeconds = (pid: number) => procCpuTicks(pid) / TICKS_PER_SECOND;

/** Seconds the process's main (JavaScript) thread has spent runnable but waiting for a CPU. */
function runQueueSeconds(pid: number): number {
  const [, waitingNs] = fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(" ");
  return Number(waitingNs) / 1e9;
}

const statusList = (statuses: Map<number, number>) =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status} × ${count}`)
    .join(", ") || "none";

export async function loadCheck(): Promise<CheckResult> {
  const settings = settingsFromEnv();
  if (!fs.existsSync("build/server/index.js")) {
    throw new Error("No production build in build/: run `npm run build` first.");
  }
  ensureWrk();
  await assertPortsFree([PORT, INSPECTOR_PORT]);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "resilience-load-"));
  const dataDir = path.join(work, "data");
  const env = sampleSiteEnv(PORT, dataDir, {
    TRUST_PROXY_HOPS: "1",
    FORM_RATE_LIMIT: String(FORM_RATE_LIMIT),
  });
  try {
    console.log("load: loading the sample feeds into a fresh embedded database…");
    const ingest = spawnSync(
      process.execPath,
      ["--import", "tsx", "cli/news.ts", "ingest", "--force"],
      { env, encoding: "utf8" },
    );
    if (ingest.status !== 0) throw new Error(`news ingest --force failed:\n${ingest.stderr}`);

    const site = startProcess(
      "site",
      process.execPath,
      [`--inspect=127.0.0.1:${INSPECTOR_PORT}`, ...WEB_PROCESS_ARGS],
      webProcessEnv(env),
      {
        logFile: path.join(work, "site.log"),
      },
    );
    let exit: Awaited<ReturnType<typeof stopChild>>;
    let warm: Awaited<ReturnType<typeof streams>>;
    let run: Awaited<ReturnType<typeof streams>>;
    const memory = { before: NaN, after: NaN, peak: NaN, heapBefore: NaN, heapAfter: NaN };
    /** What the machine and the server's event loop were like during the run, for reading the latencies. */
    const during = {
      seconds: NaN,
      loadBefore: NaN,
      loadAfter: NaN,
      cpu: NaN,
      /** Seconds the JavaScript thread was ready to run but waited for a core (other processes). */
      runQueueWait: NaN,
      lagP99Ms: NaN,
      lagMaxMs: NaN,
    };
    let server5xx = NaN;
    let serverRequests = NaN;
    /** Requests that took the server itself over 1 s, from Express to the last byte written. */
    let serverSlow = NaN;
    let serverOverOne = NaN;
    try {
      await waitForOk(`${ORIGIN}/healthz`, site);
      if ((await get(`${ORIGIN}/`)).status !== 200) throw new Error("the home page is not 200");

      console.log(`load: warming up with both streams (${settings.warmupSeconds} s)…`);
      warm = await streams(settings, "warm", settings.warmupSeconds, work);
      // RSS is read the same way both times: after a quiet moment and a full collection, so a
      // reading measures what the server keeps, not the garbage collector's timing.
      const settled = async () => {
        await sleep(SETTLE_MS);
        await collectGarbage(INSPECTOR_PORT);
        await sleep(AFTER_GC_MS);
        const rss = procMb(site.pid, "VmRSS");
        const metrics = (await get(`${ORIGIN}/metrics`)).body;
        return { rss, heap: metricSum(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20 };
      };
      ({ rss: memory.before, heap: memory.heapBefore } = await settled());

      console.log(
        `load: ${settings.homeConnections} connections on / and ${settings.postConnections} posting signups (${settings.seconds} s)…`,
      );
      during.loadBefore = os.loadavg()[0] ?? NaN;
      const cpuBefore = cpuSeconds(site.pid);
      const waitBefore = runQueueSeconds(site.pid);
      const runStarted = Date.now();
      run = await streams(settings, "load", settings.seconds, work);
      during.seconds = (Date.now() - runStarted) / 1000;
      during.cpu = (cpuSeconds(site.pid) - cpuBefore) / during.seconds;
      during.runQueueWait = runQueueSeconds(site.pid) - waitBefore;
      during.loadAfter = os.loadavg()[0] ?? NaN;
      const metricsAfter = (await get(`${ORIGIN}/metrics`)).body;
      // prom-client resets its event loop delay histogram at each scrape: this is the run's.
      during.lagP99Ms = metricSum(metricsAfter, "nodejs_eventloop_lag_p99_seconds") * 1000;
      during.lagMaxMs = metricSum(metricsAfter, "nodejs_eventloop_lag_max_seconds") * 1000;
      // Counted by the server itself, over the warm-up and the run.
      server5xx = metricSum(metricsAfter, "http_requests_total", /status="5\d\d"/);
      serverRequests = metricSum(metricsAfter, "http_requests_total");
      const answeredWithin = (seconds: number) =>
        metricSum(
          metricsAfter,
          "http_request_duration_seconds_bucket",
          new RegExp(`le="${seconds}"`),
        );
      const answered = metricSum(metricsAfter, "http_request_duration_seconds_count");
      serverOverOne = answered - answeredWithin(1);
      serverSlow = answered - answeredWithin(SLOW_SECONDS);
      ({ rss: memory.after, heap: memory.heapAfter } = await settled());
      memory.peak = procMb(site.pid, "VmHWM");
    } finally {
      exit = await stopChild(site);
    }

    // The embedded database belongs to one process: read the subscribers once the site is stopped.
    const list = spawnSync(
      process.execPath,
      ["--import", "tsx", "cli/news.ts", "subscribers", "--csv"],
      { env, encoding: "utf8", maxBuffer: 512 * 2 ** 20 },
    );
    if (list.status !== 0) throw new Error(`news subscribers --csv failed:\n${list.stderr}`);
    const storedIds = new Set(
      list.stdout
        .split("\r\n")
        .slice(1)
        // The first cell, unquoted (server/lib/csv.ts); no address here holds a quote or comma.
        .map((line) => (line.split(",")[0] ?? "").slice(1, -1))
        .filter((email) => email.endsWith("@example.org"))
        .map((email) => email.slice(0, -"@example.org".length)),
    );
    const warmCompare = compareSignups(warm.signups, "warm", storedIds);
    const runCompare = compareSignups(run.signups, "load", storedIds);

    const post5xx = [...run.signups.statuses]
      .filter(([status]) => status >= 500)
      .reduce((n, [, count]) => n + count, 0);
    const non303 = [...run.signups.statuses]
      .filter(([status]) => status !== 303)
      .reduce((n, [, count]) => n + count, 0);
    const growth = memory.after / memory.before - 1;
    const verdicts: Verdict[] = [
      {
        pass: run.home.non2xx3xx === 0 && post5xx === 0 && server5xx === 0,
        text: `no 5xx: home ${run.home.non2xx3xx} answers ≥ 400, signups ${post5xx} 5xx, the server's own count ${server5xx} 5xx (warm-up included)`,
      },
      {
        pass: socketErrors(run.home) + socketErrors(run.post) === 0,
        text: `no socket errors: home ${socketErrors(run.home)} (${socketErrorKinds(run.home)}), signups ${socketErrors(run.post)} (${socketErrorKinds(run.post)}); a timeout is an answer not complete ${TIMEOUT} after its request was sent`,
      },
      {
        pass: serverSlow === 0,
        text: `no slow answers: ${serverSlow} requests took the server more than ${SLOW_SECONDS} s from Express receiving them to the last byte written (${serverOverOne} more than 1 s; its own histogram, warm-up included)`,
      },
      {
        pass: non303 === 0 && run.signups.answered > 0,
        text: `every signup answered 303 (stored, then back to the page): ${statusList(run.signups.statuses)}`,
      },
      {
        pass: growth <= MAX_RSS_GROWTH,
        text: `RSS ${memory.before.toFixed(0)} MB after the warm-up, ${memory.after.toFixed(0)} MB after the run: ${(growth * 100).toFixed(1)} % (at most ${MAX_RSS_GROWTH * 100} %)`,
      },
      {
        pass: warmCompare.pass && runCompare.pass,
        text: `stored subscribers match the answers: ${runCompare.answered303} answered 303, all stored (${runCompare.missing.length} missing); ${runCompare.unanswered} more stored that wrk had sent and stopped waiting for at its end (${runCompare.inFlight} in flight)${warmCompare.pass ? "" : `; warm-up: ${warmCompare.missing.length} missing, ${warmCompare.unanswered} unanswered of ${warmCompare.inFlight} in flight`}`,
      },
      {
        pass: exit.code === 0,
        text: `the site stopped cleanly on SIGTERM after the run (exit code ${exit.code ?? exit.signal})`,
      },
    ];
    if (!verdicts.every((v) => v.pass)) console.error(tail(site, 30).join("\n"));

    const row = (name: string, connections: number, result: WrkResult, errors: string) => [
      name,
      connections,
      result.requests,
      Math.round(result.rps),
      ms(result.p50Ms),
      ms(result.p99Ms),
      ms(result.maxMs),
      errors,
      socketErrors(result),
    ];
    const table = formatMarkdownTable(
      [
        "stream",
        "connections",
        "requests",
        "requests/s",
        "p50",
        "p99",
        "max",
        "answers",
        "socket errors",
      ],
      [
        row(
          "home page `GET /`",
          settings.homeConnections,
          run.home,
          run.home.non2xx3xx === 0 ? "all 200" : `${run.home.non2xx3xx} ≥ 400`,
        ),
        row(
          "newsletter `POST /newsletter`",
          settings.postConnections,
          run.post,
          statusList(run.signups.statuses),
        ),
      ],
    );
    const body = `${table}

Memory (VmRSS of the server process): ${memory.before.toFixed(0)} MB after the warm-up, ${memory.after.toFixed(0)} MB after the run (${(growth * 100).toFixed(1)} %), peak ${memory.peak.toFixed(0)} MB; V8 heap used ${memory.heapBefore.toFixed(0)} → ${memory.heapAfter.toFixed(0)} MB (both read after a full collection). During the run the server used ${(during.cpu * 100).toFixed(0)} % of one core (it runs one JavaScript thread), and that thread spent ${during.runQueueWait.toFixed(1)} s of the ${during.seconds.toFixed(0)} s ready to run but waiting for a core held by another process, wrk's included (\`/proc/<pid>/schedstat\`); its event loop was delayed ${ms(during.lagP99Ms)} at the 99th percentile and ${ms(during.lagMaxMs)} at most; the machine's load average was ${during.loadBefore.toFixed(1)} at the start and ${during.loadAfter.toFixed(1)} at the end on ${os.cpus().length} cores. The server answered ${serverRequests} requests in all (its own \`/metrics\`, warm-up included), ${server5xx} of them 5xx; ${serverOverOne} took it more than 1 s and ${serverSlow} more than ${SLOW_SECONDS} s from Express receiving them to the last byte written (cache hits count as 0 s).

Subscribers: ${runCompare.answered303} signups were answered 303 and every one is stored (\`news subscribers --csv\` after the site stopped); ${runCompare.unanswered} more are stored that wrk had sent but stopped waiting for when its run ended (${runCompare.inFlight} were in flight). The warm-up's ${warmCompare.answered303} are stored too.

${verdictList(verdicts)}

How: the production build (\`NODE_ENV=production\`, PGlite in a fresh directory loaded with \`news ingest --force\` from the bundled sample feeds, \`LOG_LEVEL=warn\`, page cache on) on 127.0.0.1. Two wrk processes at once: \`wrk -t${Math.min(2, settings.homeConnections)} -c${settings.homeConnections} --timeout ${TIMEOUT} -H 'Accept-Encoding: gzip' -s resilience/home.lua /\` and \`wrk -t1 -c${settings.postConnections} --timeout ${TIMEOUT} -s resilience/newsletter.lua\`, each for ${settings.seconds} s of load after a ${settings.warmupSeconds} s warm-up of both. Both scripts hold each connection's first request for ${HOLD_MS / 1000} s (wrk's \`delay()\`; wrk's \`-d\` is that much longer and its requests/s are averaged over it), so that every connection is open before the load starts: Node accepts one new connection per turn of its event loop (libuv 1.45 and later), and a turn of this saturated server takes 100–300 ms, so 250 connections opened into a running load wait seconds to be accepted and their first requests time out. Each signup posts an address of its own with \`Origin\` set to the site's (the same-origin check) and \`returnTo\` naming it, so the 303's \`Location\` says which signup it answered. With \`TRUST_PROXY_HOPS=1\` each \`X-Forwarded-For\` address (10.x.y.z) signs up ${SIGNUPS_PER_ADDRESS} addresses, under \`FORM_RATE_LIMIT=${FORM_RATE_LIMIT}\`: the limiter counts every request, and a 429 would be a bug, not the load's bottleneck. RSS is read from \`/proc/<pid>/status\` after the warm-up and after the run the same way: ${SETTLE_MS / 1000} s with nothing asked of the server, then a full garbage collection (the server runs with \`--inspect=127.0.0.1:${INSPECTOR_PORT}\`; the check sends \`HeapProfiler.collectGarbage\`), then ${AFTER_GC_MS / 1000} s more; without the collection, the same code read 223 MB after the run once and 293 MB another time (205 MB after the warm-up both times), depending on whether V8 had collected before the reading. The machine's cores are shared by the server, both wrk processes and whatever else runs on it.

In production: a connection storm against one saturated web process waits the same way (a connection opened at 250 busy connections here waited several seconds to be accepted). Behind a reverse proxy that keeps its upstream connections open (nginx \`keepalive\`), the web process sees few new connections; run it that way, or run several web processes on PostgreSQL (\`WEB_CONCURRENCY\`: their supervisor accepts the connections and hands them over).`;
    return {
      id: "load",
      title: "Load: home page and newsletter signups at once",
      verdicts,
      summary: `home ${Math.round(run.home.rps)} req/s (p99 ${ms(run.home.p99Ms)}), signups ${Math.round(run.post.rps)} req/s (p99 ${ms(run.post.p99Ms)}); ${server5xx} 5xx, ${socketErrors(run.home) + socketErrors(run.post)} socket errors; RSS ${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)} %; ${runCompare.stored} stored for ${runCompare.answered303} answered`,
      body,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
