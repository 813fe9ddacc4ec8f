/**
 * `npm run bench:startup`: from spawning the production server (`node` with WEB_PROCESS_ARGS, as
 * `npm start` runs it, not through npm) to the first 200 of `/`, a real page, polled every 50 ms; with the embedded
 * database on an existing data directory (the sample feeds stored) and on a new one (initdb and
 * migrations included). Best of 3 each. Run `npm run build` first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";
import { ingestFeeds, sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS, WEB_PROCESS_ENV_LINE, webProcessEnv } from "../scripts/web-process.js";

const PORT = Number(process.env.BENCH_STARTUP_PORT ?? 3510);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ROUNDS = 3;
const POLL_MS = 50;
const TIMEOUT_MS = 60_000;
const TARGETS = { existing: 2000, new: 6000 };

/** The status of one GET on a connection of its own; 0 when nothing answers yet. */
function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      })
      .on("error", () => resolve(0));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

interface Start {
  /** Spawn to the first 200 of /healthz (listening: database open and migrated). */
  healthz: number;
  /** Spawn to the first 200 of / (the first page rendered). */
  page: number;
}

/** Spawns the server and polls until `/` answers 200; /healthz is polled alongside for context. */
async function timeStart(dataDir: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, WEB_PROCESS_ARGS, {
    env: webProcessEnv(sampleSiteEnv(PORT, dataDir)),
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    let healthz = NaN;
    while (performance.now() - started < TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (Number.isNaN(healthz) && (await status(`${ORIGIN}/healthz`)) === 200) {
        healthz = performance.now() - started;
      }
      if (!Number.isNaN(healthz) && (await status(`${ORIGIN}/`)) === 200) {
        return { healthz, page: performance.now() - started };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`no 200 from / within ${TIMEOUT_MS / 1000} s`);
  } finally {
    await stop(child);
  }
}

if (!fs.existsSync("build/server/index.js")) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-startup-"));
const existingDir = path.join(work, "existing");
const results = { existing: [] as Start[], new: [] as Start[] };
try {
  console.log("Loading the sample feeds into the existing data directory…");
  if (!ingestFeeds(sampleSiteEnv(PORT, existingDir))) {
    throw new Error("loading the sample feeds failed");
  }
  // Alternating, so a busy moment on the machine falls on both alike.
  for (let round = 1; round <= ROUNDS; round++) {
    results.existing.push(await timeStart(existingDir));
    // A directory that does not exist yet: created, initialised and migrated by the server.
    results.new.push(await timeStart(path.join(work, `new-${round}`)));
    console.log(
      `Round ${round}: existing ${results.existing.at(-1)?.page.toFixed(0)} ms, new ${results.new.at(-1)?.page.toFixed(0)} ms`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const verdicts: string[] = [];
const rows = (["existing", "new"] as const).map((kind) => {
  const starts = results[kind];
  const best = starts.reduce((a, b) => (b.page < a.page ? b : a));
  const target = TARGETS[kind];
  const pass = best.page < target;
  verdicts.push(
    `${pass ? "PASS" : "MISS"}: ${kind} data directory, best of ${ROUNDS}: ${(best.page / 1000).toFixed(2)} s to the first 200 of / (target < ${target / 1000} s)`,
  );
  return [
    kind === "existing"
      ? "existing data directory (sample feeds stored)"
      : "new data directory (initdb + migrations)",
    `${(best.page / 1000).toFixed(2)} s`,
    `${(best.healthz / 1000).toFixed(2)} s`,
    starts.map((s) => (s.page / 1000).toFixed(2)).join(", "),
    `< ${target / 1000} s: ${pass ? "PASS" : "MISS"}`,
  ];
});
const table = formatMarkdownTable(
  ["PGlite", "to first 200 of `/` (best)", "its /healthz 200", `all ${ROUNDS} runs (s)`, "target"],
  rows,
);
const body = `Machine: ${machineLine()}

${table}

${verdicts.map((line) => `- ${line}`).join("\n")}

Time from spawning \`node ${WEB_PROCESS_ARGS.join(" ")}\` with \`${WEB_PROCESS_ENV_LINE}\` as \`npm start\` does (\`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, no ingest schedule) to the first 200 of \`/\`, polled every ${POLL_MS} ms on a new connection each time; it includes loading the compiled code, opening the embedded database, migrating it and rendering the first page. \`/healthz\` answers once the server listens, so the gap between the two columns is the first page's render. Existing and new directories alternate, ${ROUNDS} rounds.`;
console.log(`\n${body}\n`);
await writeSection("startup", "Start-up (`npm run bench:startup`)", body);
