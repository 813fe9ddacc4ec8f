/**
 * `npm run bench:pictures`: what feed pictures cost (issue 20), with the real-photos fixtures
 * (server/test-support/photos.ts: JPEG news photographs, 1200–2000 px, 200 KB–1 MB, on another loopback host).
 *
 * 1. Resizing: copies made per second per core, for each format at a few widths and for the
 *    social-preview crop, with the web process's own code (server/images/picture.ts, one libvips
 *    thread), CPU time counted.
 * 2. Memory: the RSS of a web process (started as `npm start` starts it) while a cold page's
 *    pictures are made: every copy each `<picture>` of the article and the home page names is
 *    asked for, six at a time as a browser's connections to one host, RSS sampled every 10 ms.
 * 3. Waiting: the time of the first request of each copy such a page names (made on that request)
 *    against the second (read from disk).
 *
 * Parts 2 and 3 read the page's HTML for `/images/<sha256>/<file>` addresses (shared/picture.ts);
 * a page naming none fails the run ("the page names no stored pictures"). Run `npm run build`
 * first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { renderCrop, renderVariant } from "../server/images/picture";
import {
  CROPS,
  VARIANT_FORMATS,
  type VariantFormat,
  type VariantWidth,
} from "../server/images/variants";
import { ingestFeedsAsync, sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "../scripts/web-process.js";
import { pagePictures, STORED_PICTURE } from "../server/test-support/page-pictures";
import { startRealPhotos, type RealPhotos } from "../server/test-support/photo-feeds";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const PORT = Number(process.env.BENCH_PICTURES_PORT ?? 3520);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const WIDTHS: VariantWidth[] = [320, 640, 1200];
/** Each photo resized this many times per format and width. */
const ROUNDS = Number(process.env.BENCH_PICTURE_ROUNDS ?? 2);
/** A browser's connections to one host over HTTP/1.1. */
const CONNECTIONS = 6;
const SAMPLE_MS = 10;
/** The web process's memory budget (decision 013, bench/load.ts). */
const RSS_BUDGET_MB = 250;

// --- 1. Resizing -----------------------------------------------------------------------------------

interface ResizeRow {
  what: string;
  made: number;
  cpuSeconds: number;
  wallSeconds: number;
  bytes: number;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function measureResizing(originals: Buffer[]): Promise<ResizeRow[]> {
  const [first] = originals;
  if (!first) throw new Error("no photos");
  // sharp and each encoder loaded once before anything is timed.
  for (const format of VARIANT_FORMATS) await renderVariant(first, { width: 320, format });
  await renderCrop(first, CROPS.og);

  const rows: ResizeRow[] = [];
  const time = async (what: string, make: (original: Buffer) => Promise<Buffer>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let made = 0;
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const original of originals) {
        bytes += (await make(original)).byteLength;
        made += 1;
      }
    }
    const row = {
      what,
      made,
      cpuSeconds: cpuSeconds(cpu),
      wallSeconds: (performance.now() - started) / 1000,
      bytes,
    };
    console.log(
      `  ${what}: ${(row.made / row.cpuSeconds).toFixed(1)} per CPU second, ${((row.wallSeconds / row.made) * 1000).toFixed(0)} ms each`,
    );
    rows.push(row);
  };
  for (const format of VARIANT_FORMATS) {
    for (const width of WIDTHS) {
      await time(`${format} ${width} px`, (original) => renderVariant(original, { width, format }));
    }
  }
  // What most slots name, the middle 16:9 of the photo (shared/picture.ts, shapeSize), beside the
  // whole photo at the same width: the bytes a 16:9 card saves.
  for (const shape of ["whole", "wide"] as const) {
    await time(`avif 720 px, ${shape === "wide" ? "wide (16:9)" : "whole"}`, (original) =>
      renderVariant(original, { width: 720, format: "avif", shape }),
    );
  }
  await time(`crop \`og\` ${CROPS.og.width} × ${CROPS.og.height} JPEG`, (original) =>
    renderCrop(original, CROPS.og),
  );
  return rows;
}

// --- 2 and 3. The web process ----------------------------------------------------------------------

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
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
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

async function startSite(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, WEB_PROCESS_ARGS, {
    env: webProcessEnv(env),
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await get(`${ORIGIN}/healthz`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the site did not answer within 60 s");
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
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

interface CopyTime {
  path: string;
  format: string;
  ms: number;
  bytes: number;
}

/** Every address in `paths`, CONNECTIONS at a time; each one's time, and the time for all. */
async function requestAll(paths: string[]): Promise<{ times: CopyTime[]; wallMs: number }> {
  const times: CopyTime[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const picturePath = paths[next++] ?? "";
      const response = await get(`${ORIGIN}${picturePath}`);
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

interface PageRun {
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

async function measurePage(
  env: NodeJS.ProcessEnv,
  picturesDir: string,
  page: { name: string; path: (home: string) => string },
): Promise<PageRun> {
  const removed = removeCopies(picturesDir);
  if (removed > 0) console.log(`  removed ${removed} copies made before: ${page.name} starts cold`);
  const site = await startSite(env);
  try {
    const pid = site.pid ?? 0;
    const home = (await get(`${ORIGIN}/`)).body.toString("utf8");
    const pagePath = page.path(home);
    const response = await get(`${ORIGIN}${pagePath}`);
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
    const named = pagePictures(response.body.toString("utf8"), ORIGIN);
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
      cold = await requestAll(named.stored);
    } finally {
      clearInterval(sampler);
    }
    sample();
    const rssAfter = rssMb(pid);
    const warm = await requestAll(named.stored);
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

// --- Run -------------------------------------------------------------------------------------------

if (!fs.existsSync("build/web/main.js")) {
  console.error("No production build: run `npm run build` first.");
  process.exit(1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pictures-"));
let real: RealPhotos | undefined;
const cleanUp = async () => {
  await real?.close();
  fs.rmSync(work, { recursive: true, force: true });
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
}

let resizing: ResizeRow[];
const pages: PageRun[] = [];
let originalsStored = 0;
let photoCount = 0;
let ingestSeconds = 0;
try {
  console.log("Drawing the photos (or reading them from the cache), starting their host…");
  real = await startRealPhotos({ outDir: path.join(work, "feeds") });
  photoCount = real.photos.length;
  console.log(`Resizing the ${photoCount} photos, ${ROUNDS} round(s) each…`);
  resizing = await measureResizing(real.photos.map((photo) => fs.readFileSync(photo.file)));

  const picturesDir = path.join(work, "pictures");
  const env = sampleSiteEnv(PORT, path.join(work, "data"), {
    ...real.env,
    PICTURES_DIR: picturesDir,
  });
  console.log("Loading the feeds that link the photos (ingest fetches the photos)…");
  const ingestStarted = performance.now();
  if (!(await ingestFeedsAsync(env))) throw new Error("loading the feeds failed");
  ingestSeconds = (performance.now() - ingestStarted) / 1000;
  originalsStored = fs.existsSync(picturesDir)
    ? fs.readdirSync(picturesDir).filter((name) => /^[0-9a-f]{64}$/.test(name)).length
    : 0;
  console.log(`  ${originalsStored} originals stored in ${ingestSeconds.toFixed(1)} s`);

  const firstArticle = (home: string) => {
    const found = /href="(\/article\/[^"#?]+)"/.exec(home)?.[1];
    if (!found) throw new Error("no /article/... link on the home page");
    return found;
  };
  // The article first: its pictures are among the home page's, which would make them warm.
  for (const page of [
    { name: "article", path: firstArticle },
    { name: "home", path: () => "/" },
  ]) {
    pages.push(await measurePage(env, picturesDir, page));
  }
} catch (error) {
  console.error(`✖ ${(error as Error).message}`);
  await cleanUp();
  process.exit(1);
}
await cleanUp();

// --- Report ----------------------------------------------------------------------------------------

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const msText = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

const resizeTable = formatMarkdownTable(
  ["copy", "made", "per CPU second (one core)", "wall time each", "mean size"],
  resizing.map((row) => [
    row.what,
    row.made,
    (row.made / row.cpuSeconds).toFixed(1),
    msText((row.wallSeconds / row.made) * 1000),
    `${(row.bytes / row.made / 1024).toFixed(1)} KB`,
  ]),
);

const byFormat = (times: CopyTime[]) => {
  const formats = [...new Set(times.map((t) => t.format))];
  return formats.map((format) => ({ format, times: times.filter((t) => t.format === format) }));
};
const waitRows: (string | number)[][] = [];
for (const page of pages) {
  for (const { format, times } of byFormat(page.cold.times)) {
    const warm = page.warm.times.filter((t) => t.format === format);
    const cold = times.map((t) => t.ms);
    const warmMs = warm.map((t) => t.ms);
    waitRows.push([
      `${page.name}, ${format as VariantFormat | "crop"}`,
      times.length,
      `${msText(percentile(cold, 50))} / ${msText(percentile(cold, 95))} / ${msText(Math.max(...cold))}`,
      `${msText(percentile(warmMs, 50))} / ${msText(percentile(warmMs, 95))} / ${msText(Math.max(...warmMs))}`,
    ]);
  }
  waitRows.push([
    `${page.name}, all ${page.copies} copies of ${page.pictures} pictures, ${CONNECTIONS} at a time`,
    page.copies,
    `${(page.cold.wallMs / 1000).toFixed(2)} s in all`,
    `${(page.warm.wallMs / 1000).toFixed(2)} s in all`,
  ]);
}
const waitTable = formatMarkdownTable(
  ["page, format", "copies", "cold: p50 / p95 / max", "warm: p50 / p95 / max"],
  waitRows,
);
const memoryTable = formatMarkdownTable(
  [
    "cold page",
    "pictures (copies)",
    "web process: before",
    "peak while made",
    "after",
    "picture maker: peak",
    "both: peak",
  ],
  pages.map((page) => [
    `${page.name} (\`${page.path.length > 40 ? `${page.path.slice(0, 37)}…` : page.path}\`)`,
    `${page.pictures} (${page.copies})`,
    `${page.rssBefore.toFixed(0)} MB`,
    `${page.rssPeak.toFixed(0)} MB`,
    `${page.rssAfter.toFixed(0)} MB`,
    `${page.makerPeak.toFixed(0)} MB`,
    `${page.togetherPeak.toFixed(0)} MB`,
  ]),
);
const verdicts = pages.map((page) => {
  const pass = page.rssPeak < RSS_BUDGET_MB;
  return `${pass ? "PASS" : "MISS"}: web process RSS while a cold ${page.name} page's pictures are made: peak ${page.rssPeak.toFixed(0)} MB (budget < ${RSS_BUDGET_MB} MB, decision 013)`;
});

const body = `Machine: ${machineLine()}

With the real-photos fixtures: ${photoCount} JPEG news photographs (\`server/test-support/photos.ts\`) on another loopback host, linked by the sample feeds (\`server/test-support/photo-feeds.ts\`); ingest fetched and stored ${originalsStored} originals in ${ingestSeconds.toFixed(1)} s.

### Resizing

${resizeTable}

Each of the ${photoCount} photos ${ROUNDS} time(s) per row, one after another, with \`renderVariant\` and \`renderCrop\` of \`server/images/picture.ts\` as the web process makes its copies (libvips on one thread, no cache). Per CPU second: copies made per second of CPU time of this process (all its threads), so per core.

### Memory of the web process while a cold page's pictures are made

${memoryTable}

A fresh web process (\`node ${WEB_PROCESS_ARGS.join(" ")}\`, as \`npm start\` runs it) with every copy removed, the originals kept; after the page itself is rendered, every copy its \`<picture>\`s and \`<img>\`s name (\`src\`, \`srcset\`, image preloads: all formats and widths, more than any one browser asks for) is asked for, ${CONNECTIONS} at a time, while its VmRSS and its picture maker's (the child process that makes the copies, \`server/images/picture-maker.ts\`; it exits after 30 s without a job, giving its memory back) are read every ${SAMPLE_MS} ms.

${verdicts.map((line) => `- ${line}`).join("\n")}

### How long a cold page waits for its pictures

${waitTable}

The same requests: the first of each copy (made on that request, one at a time in the process, so later ones queue behind earlier ones) against the second (read from the folder). A browser asks for one copy of each picture, the format and width it picks, so a reader's wait for one picture is a row's cold time, not the total.`;
console.log(`\n${body}\n`);
await writeSection(
  "pictures",
  "Feed pictures: resizing, memory, waiting (`npm run bench:pictures`)",
  body,
);
