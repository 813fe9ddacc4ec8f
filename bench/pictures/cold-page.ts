/** bench:pictures, parts 2 and 3: a fresh web process making a cold page's copies: memory, waits. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { procMb } from "../../resilience/processes";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../../scripts/web-process.js";
import { pagePictures, STORED_PICTURE } from "../../server/test-support/page-pictures";
import { stop } from "../load/site";

/** A browser's connections to one host over HTTP/1.1. */
export const CONNECTIONS = 6;
export const SAMPLE_MS = 10;

/** One GET on a connection of its own: status, body bytes and milliseconds to the last byte. */
function get(url: string): Promise<{ status: number; body: Buffer; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

function rssMb(pid: number): number {
  try {
    return procMb(pid, "VmRSS");
  } catch {
    return 0; // Gone (the picture maker's child exits when idle).
  }
}

/** The RSS of the web process's picture maker (server/images/picture-maker.ts), 0 when none runs. */
function makerRssMb(webPid: number): number {
  let total = 0;
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: the command may hold spaces, so read after its ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== webPid) continue;
      if (!fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes("picture-worker")) continue;
      total += rssMb(Number(name));
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

async function startSite(origin: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, WEB_PROCESS_ARGS, {
    env: webProcessEnv(env),
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await get(`${origin}/healthz`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the site did not answer within 60 s");
}

/** Removes every copy made of the stored pictures, keeping the originals ingest fetched. */
function removeCopies(picturesDir: string): number {
  let removed = 0;
  for (const hash of fs.readdirSync(picturesDir)) {
    if (!/^[0-9a-f]{64}$/.test(hash)) continue;
    for (const file of fs.readdirSync(path.join(picturesDir, hash))) {
      if (file === "original") continue;
      fs.rmSync(path.join(picturesDir, hash, file));
      removed += 1;
    }
  }
  return removed;
}

export interface CopyTime {
  path: string;
  format: string;
  ms: number;
  bytes: number;
}

/** Every address in `paths`, CONNECTIONS at a time; each one's time, and the time for all. */
async function requestAll(
  origin: string,
  paths: string[],
): Promise<{ times: CopyTime[]; wallMs: number }> {
  const times: CopyTime[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const picturePath = paths[next++] ?? "";
      const response = await get(`${origin}${picturePath}`);
      if (response.status !== 200) {
        throw new Error(`${picturePath} answered ${response.status}`);
      }
      const file = STORED_PICTURE.exec(picturePath)?.[2] ?? "";
      times.push({
        path: picturePath,
        format: /^(?:wide-)?\d+\./.test(file) ? (file.split(".")[1] ?? "") : "crop",
        ms: response.ms,
        bytes: response.body.byteLength,
      });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return { times, wallMs: performance.now() - started };
}

export interface PageRun {
  name: string;
  path: string;
  /** `<picture>`s and `<img>`s of stored pictures: distinct hashes the page names. */
  pictures: number;
  copies: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
  /** The picture maker's child process, and it with the web process, sampled together. */
  makerPeak: number;
  togetherPeak: number;
  cold: { times: CopyTime[]; wallMs: number };
  warm: { times: CopyTime[]; wallMs: number };
}

export async function measurePage(
  origin: string,
  env: NodeJS.ProcessEnv,
  picturesDir: string,
  page: { name: string; path: (home: string) => string },
): Promise<PageRun> {
  const removed = removeCopies(picturesDir);
  if (removed > 0) console.log(`  removed ${removed} copies made before: ${page.name} starts cold`);
  const site = await startSite(origin, env);
  try {
    const pid = site.pid ?? 0;
    const home = (await get(`${origin}/`)).body.toString("utf8");
    const pagePath = page.path(home);
    const response = await get(`${origin}${pagePath}`);
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
    const named = pagePictures(response.body.toString("utf8"), origin);
    if (named.stored.length === 0) {
      throw new Error(
        `the page names no stored pictures: ${pagePath} names ${named.otherOrigins.length} on other origins and ${named.site.length} of the site's own, none at /images/<sha256>/…`,
      );
    }
    const hashes = new Set(named.stored.map((p) => STORED_PICTURE.exec(p)?.[1]));
    const rssBefore = rssMb(pid);
    let rssPeak = rssBefore;
    let makerPeak = 0;
    let togetherPeak = rssBefore;
    const sample = () => {
      const web = rssMb(pid);
      const maker = makerRssMb(pid);
      rssPeak = Math.max(rssPeak, web);
      makerPeak = Math.max(makerPeak, maker);
      togetherPeak = Math.max(togetherPeak, web + maker);
    };
    const sampler = setInterval(sample, SAMPLE_MS);
    let cold;
    try {
      cold = await requestAll(origin, named.stored);
    } finally {
      clearInterval(sampler);
    }
    sample();
    const rssAfter = rssMb(pid);
    const warm = await requestAll(origin, named.stored);
    console.log(
      `  ${page.name}: ${named.stored.length} copies of ${hashes.size} pictures; cold ${(cold.wallMs / 1000).toFixed(1)} s, warm ${(warm.wallMs / 1000).toFixed(2)} s; RSS ${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} → ${rssAfter.toFixed(0)} MB; picture maker peak ${makerPeak.toFixed(0)} MB`,
    );
    return {
      name: page.name,
      path: pagePath,
      pictures: hashes.size,
      copies: named.stored.length,
      rssBefore,
      rssPeak,
      rssAfter,
      makerPeak,
      togetherPeak,
      cold,
      warm,
    };
  } finally {
    await stop(site);
  }
}
