/**
 * One load run of `npm run bench:load`: wrk (else `npx autocannon`) against a URL, with the CPU the
 * server and the load generator used meanwhile, read from /proc.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { procCpuTicks, TICKS_PER_SECOND } from "../../resilience/processes";
import { parseWrk, socketErrors } from "../../resilience/wrk";

export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

export interface LoadResult {
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

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** wrk and nginx, installed with apt when missing and this is root on a Debian-like system. */
export function ensureTools(): { wrk: boolean; nginx: boolean } {
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
export function childPids(pid: number): number[] {
  const list = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return list ? list.split(/\s+/).map(Number) : [];
}

/** Clock ticks of CPU a process and (with `children`) its direct children used so far. */
function cpuTicks(pid: number, children = false): number {
  const own = (id: number) => {
    try {
      return procCpuTicks(id);
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

/** One load run against `url`; `serverPid` is measured for CPU (with its children for nginx). */
export function load(
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

/** Several runs of the same load as one: each figure's median, and every error of every run. */
export function medianResult(results: LoadResult[]): LoadResult {
  const median = (key: keyof LoadResult) => {
    const sorted = results.map((result) => result[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? NaN;
  };
  const sum = (key: keyof LoadResult) => results.reduce((n, result) => n + result[key], 0);
  return {
    rps: median("rps"),
    p50Ms: median("p50Ms"),
    p99Ms: median("p99Ms"),
    non2xx: sum("non2xx"),
    socketErrors: sum("socketErrors"),
    serverCpu: median("serverCpu"),
    clientCpu: median("clientCpu"),
  };
}
