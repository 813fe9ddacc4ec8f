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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { VariantFormat } from "../server/images/variants";
import { ingestFeedsAsync, sampleSiteEnv } from "../scripts/sample-site.js";
import { WEB_PROCESS_ARGS } from "../scripts/web-process.js";
import { startRealPhotos, type RealPhotos } from "../server/test-support/photo-feeds";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";
import {
  CONNECTIONS,
  measurePage,
  SAMPLE_MS,
  type CopyTime,
  type PageRun,
} from "./pictures/cold-page";
import { measureResizing, ROUNDS, type ResizeRow } from "./pictures/resizing";

const PORT = Number(process.env.BENCH_PICTURES_PORT ?? 3520);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** The web process's memory budget (decision 013, bench/load.ts). */
const RSS_BUDGET_MB = 250;

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
    pages.push(await measurePage(ORIGIN, env, picturesDir, page));
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
