/**
 * The processes a resilience check starts: the site and the `news` command run as `node --import
 * tsx` (node itself, so the pid is the server's for /proc and signals), their output kept for the
 * report, and every one stopped again by its own pid when the run ends or is interrupted.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";
import WebSocket from "ws";
import { metricsAuthorization } from "../scripts/sample-site.js";

export interface Child {
  name: string;
  pid: number;
  /** Started as the leader of a process group of its own: signals go to the whole group. */
  group: boolean;
  process: ChildProcess;
  /** stdout and stderr, line by line, as they came. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Everything started and not yet seen to exit: stopped by `stopAll` on an interrupted run. */
const running = new Set<Child>();

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts `node --import tsx <script> ...args` from the repository root with `env` as its whole environment. */
export function startNode(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile?: string,
): Child {
  return startProcess(name, process.execPath, ["--import", "tsx", script, ...args], env, {
    logFile,
  });
}

/**
 * Starts `command`, keeping its output (and copying it to `logFile` or, with `echo`, to ours). With
 * `group`, it leads a process group of its own, so that stopping it stops the processes it started
 * too (vitest's workers).
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { logFile?: string; echo?: boolean; group?: boolean } = {},
): Child {
  const group = options.group ?? false;
  const proc = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: group });
  if (proc.pid === undefined) throw new Error(`${name} could not be started`);
  const logFile = options.logFile;
  const lines: string[] = [];
  const log = logFile ? fs.createWriteStream(logFile, { flags: "a" }) : undefined;
  for (const stream of [proc.stdout, proc.stderr]) {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      log?.write(chunk);
      if (options.echo) process.stdout.write(chunk);
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
    });
    stream.on("end", () => {
      if (rest) lines.push(rest);
    });
  }
  const child: Child = {
    name,
    pid: proc.pid,
    group,
    process: proc,
    lines,
    exited: new Promise((resolve) =>
      proc.once("exit", (code, signal) => {
        running.delete(child);
        log?.end();
        resolve({ code, signal });
      }),
    ),
  };
  running.add(child);
  return child;
}

export const isRunning = (child: Child) =>
  child.process.exitCode === null && child.process.signalCode === null;

/** The last lines a child printed, for a failure message. */
export const tail = (child: Child, count = 15) =>
  child.lines.slice(-count).map((line) => `    ${child.name}: ${line}`);

/**
 * Sends `signal` and waits for the exit, SIGKILL after `graceMs`. Answers how the process ended.
 */
export async function stopChild(
  child: Child,
  signal: NodeJS.Signals = "SIGTERM",
  graceMs = 15_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (isRunning(child)) {
    const send = (sig: NodeJS.Signals) => {
      try {
        if (child.group) process.kill(-child.pid, sig);
        else child.process.kill(sig);
      } catch {
        // already gone
      }
    };
    send(signal);
    const timer = setTimeout(() => send("SIGKILL"), graceMs);
    const result = await child.exited;
    clearTimeout(timer);
    return result;
  }
  return child.exited;
}

/** Stops every child still running (an interrupted or failed run), each by its own pid. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, "SIGTERM", 5_000)));
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decompressed. */
  body: string;
}

/** A GET on a connection of its own, gzip accepted and undone. */
export function get(url: string, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      {
        agent: false,
        headers: { "accept-encoding": "gzip", ...metricsAuthorization(url) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: body.toString("utf8"),
          });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${url}: no answer in ${timeoutMs} ms`)));
    request.on("error", reject);
  });
}

/** Waits until `url` answers 200, failing early when `child` exits first. */
export async function waitForOk(url: string, child: Child, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(child)) {
      throw new Error([`${child.name} exited before answering ${url}:`, ...tail(child)].join("\n"));
    }
    try {
      if ((await get(url, 2_000)).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Asks `test` every `intervalMs` until it holds: the time it first did. Fails when one of `children`
 * stops that was not stopped on purpose, and once `timeoutMs` have passed.
 */
export async function pollUntil(
  what: string,
  test: () => Promise<boolean>,
  timeoutMs: number,
  watch: {
    children: readonly Child[];
    stoppedOnPurpose: (child: Child) => boolean;
    intervalMs: number;
  },
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return Date.now();
    for (const child of watch.children) {
      if (!isRunning(child) && !watch.stoppedOnPurpose(child)) {
        throw new Error(
          [`${child.name} stopped while waiting for ${what}:`, ...tail(child)].join("\n"),
        );
      }
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(watch.intervalMs);
  }
}

/** Fails with a clear message when one of `ports` is already taken on 127.0.0.1. */
export async function assertPortsFree(ports: number[]): Promise<void> {
  for (const port of ports) {
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", () =>
        reject(new Error(`port ${port} on 127.0.0.1 is in use; stop what listens there`)),
      );
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
    });
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS: resident now; VmHWM: the peak). */
export function procMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

/** Clock ticks per second: the unit of the CPU times in /proc/<pid>/stat. */
export const TICKS_PER_SECOND =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** Clock ticks of CPU (user and system) a process has used so far. */
export function procCpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime: fields 14 and 15 of the file, 12 and 13 after the command name.
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * A full garbage collection in a process started with `--inspect=127.0.0.1:<port>`, asked for over
 * the DevTools protocol (`HeapProfiler.collectGarbage`, what DevTools' "Collect garbage" button
 * sends). Memory read after it is what the process holds, not garbage V8 has not yet got round to:
 * an idle Node process collects on its own only when it allocates again.
 */
export async function collectGarbage(inspectorPort: number): Promise<void> {
  const listing = await get(`http://127.0.0.1:${inspectorPort}/json/list`);
  const [target] = JSON.parse(listing.body) as { webSocketDebuggerUrl?: string }[];
  if (!target?.webSocketDebuggerUrl) {
    throw new Error(`no inspector target on 127.0.0.1:${inspectorPort}`);
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.once("open", () =>
        socket.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" })),
      );
      socket.on("message", (data: WebSocket.RawData) => {
        const answer = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
        if (answer.id !== 1) return;
        if (answer.error) reject(new Error(`HeapProfiler.collectGarbage: ${answer.error.message}`));
        else resolve();
      });
    });
  } finally {
    socket.close();
  }
}

/** The sum of a Prometheus metric's samples whose line matches `filter`. */
export function metricSum(text: string, name: string, filter: RegExp = /.*/): number {
  return text
    .split("\n")
    .filter(
      (line) => (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) && filter.test(line),
    )
    .reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
}

/** A whole number from the environment, or `fallback`; anything else stops the run. */
export function envNumber(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new Error(`${name} must be a whole number above 0 (got "${value}")`);
  }
  return number;
}
