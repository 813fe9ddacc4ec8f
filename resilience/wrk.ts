import { spawn, spawnSync } from "node:child_process";

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;

/** wrk, installed with apt-get when missing and this is root on a Debian-like system; else a clear error. */
export function ensureWrk(): void {
  if (has("wrk")) return;
  if (process.getuid?.() === 0 && has("apt-get")) {
    console.log("Installing wrk with apt-get…");
    spawnSync("sh", ["-c", "apt-get update -qq && apt-get install -y -qq wrk >/dev/null"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  if (!has("wrk")) {
    throw new Error(
      "wrk is not installed and could not be installed here: run `apt-get install wrk` (Debian/Ubuntu) or put wrk on PATH.",
    );
  }
}

export interface WrkResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers with a status of 400 or more ("Non-2xx or 3xx responses"). */
  non2xx3xx: number;
  socket: { connect: number; read: number; write: number; timeout: number };
  output: string;
}

function toMs(value: string | undefined, unit: string | undefined): number {
  const factor: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return Number(value) * (factor[unit ?? ""] ?? NaN);
}

/** Whether the output has the lines every finished run prints, whatever its script does. */
const hasSummary = (output: string) =>
  /^\s*\d+ requests in /m.test(output) && /^Requests\/sec:/m.test(output);

export function parseWrk(output: string): WrkResult {
  const latency = (percent: number) => {
    const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(output);
    return toMs(match?.[1], match?.[2]);
  };
  const max = /^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)/m.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN),
    p50Ms: latency(50),
    p99Ms: latency(99),
    maxMs: toMs(max?.[1], max?.[2]),
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    // wrk prints the line only when there was an error.
    socket: {
      connect: Number(socket?.[1] ?? 0),
      read: Number(socket?.[2] ?? 0),
      write: Number(socket?.[3] ?? 0),
      timeout: Number(socket?.[4] ?? 0),
    },
    output,
  };
}

export const socketErrors = (result: WrkResult) =>
  result.socket.connect + result.socket.read + result.socket.write + result.socket.timeout;

/** "connect 0, read 0, write 0, timeout 3", as wrk prints them. */
export const socketErrorKinds = (result: WrkResult) =>
  Object.entries(result.socket)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");

/** Runs wrk to the end (it runs for its -d) and parses what it printed. */
export function runWrk(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<WrkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    // "close", not "exit": wrk's summary may still be in the pipe when the process has exited.
    child.once("close", (code, signal) => {
      if (code !== 0) {
        reject(new Error(`wrk ${args.join(" ")} exited with ${code ?? signal}: ${stderr}`));
      } else if (!hasSummary(stdout)) {
        reject(new Error(`wrk ${args.join(" ")} printed no summary:\n${stdout}${stderr}`));
      } else {
        resolve(parseWrk(stdout));
      }
    });
  });
}
