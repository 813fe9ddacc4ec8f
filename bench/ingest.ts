/**
 * `npm run bench:ingest`: a full ingest pass against the sequential one-at-a-time baseline, a pass
 * where every feed answers 304, and parse throughput against rss-parser on the real-world corpus.
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pino } from "pino";
import Parser from "rss-parser";
import { openDatabase } from "../server/db/client";
import { articles, feeds } from "../server/db/schema";
import type { FeedSource } from "../server/ingest/feeds-config";
import { runIngestPass } from "../server/ingest/ingest";
import { normalizeItem } from "../server/ingest/normalize";
import { parseFeed } from "../server/ingest/parse";
import type { PoolLimits } from "../server/lib/pool";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const FEEDS = 30;
const HOSTS = 15;
const LATENCY_MS = 200;
const logger = pino({ level: "silent" });

interface Timing {
  /** Wall-clock milliseconds of the pass. */
  wall: number;
  /** CPU milliseconds the process spent on it (fetching, parsing, the embedded database): its cost. */
  cpu: number;
}

const PASS_SETUPS: { label: string; limits: PoolLimits; latencyMs: number }[] = [
  {
    label: "sequential, one at a time (the spec's way)",
    limits: { global: 1, perHost: 1 },
    latencyMs: LATENCY_MS,
  },
  {
    label: "ours, default: 6 at once, 2 per host",
    limits: { global: 6, perHost: 2 },
    latencyMs: LATENCY_MS,
  },
  {
    label: "ours, INGEST_CONCURRENCY=16: 16 at once, 2 per host",
    limits: { global: 16, perHost: 2 },
    latencyMs: LATENCY_MS,
  },
  {
    label: "ours, default, servers answering at once (0 ms latency)",
    limits: { global: 6, perHost: 2 },
    latencyMs: 0,
  },
];

/**
 * The publishers' servers run in a child process, so the CPU measured here is the pass's alone.
 * Resolves with the child, the feed URLs it serves and the size of one feed.
 */
async function startFeedServers(
  latencyMs: number,
): Promise<{ child: ChildProcess; urls: string[]; bytes: number }> {
  const child = fork(path.resolve("bench/feed-servers.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      FEEDS: String(FEEDS),
      HOSTS: String(HOSTS),
      LATENCY_MS: String(latencyMs),
    },
  });
  const served = await new Promise<{ urls: string[]; bytes: number }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as { urls: string[]; bytes: number }));
    child.once("exit", (code) => reject(new Error(`the feed servers exited with ${code}`)));
  });
  return { child, ...served };
}

async function benchPasses() {
  const latencies = [...new Set(PASS_SETUPS.map((setup) => setup.latencyMs))];
  const servers = new Map(
    await Promise.all(latencies.map(async (ms) => [ms, await startFeedServers(ms)] as const)),
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ingest-"));
  const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "bench" });
  await database.migrate();

  const timePass = async (
    { limits, latencyMs }: (typeof PASS_SETUPS)[number],
    fresh: boolean,
  ): Promise<Timing> => {
    const sources: FeedSource[] = (servers.get(latencyMs)?.urls ?? []).map((url) => ({
      url,
      category: "local-news",
    }));
    if (fresh) {
      await database.db.delete(articles);
      await database.db.delete(feeds);
    }
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const summary = await runIngestPass(sources, {
      database,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      force: true,
      limits,
    });
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const expected = fresh ? summary.fetched : summary.notModified;
    if (expected !== FEEDS) throw new Error(`${expected} of ${FEEDS} feeds answered as expected`);
    return { wall, cpu: (cpu.user + cpu.system) / 1000 };
  };

  const results = new Map<string, { first: Timing[]; again: Timing[] }>(
    PASS_SETUPS.map((setup) => [setup.label, { first: [], again: [] }]),
  );
  for (let round = 0; round < 2; round++) {
    for (const setup of PASS_SETUPS) {
      const entry = results.get(setup.label);
      entry?.first.push(await timePass(setup, true));
      entry?.again.push(await timePass(setup, false));
    }
  }
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const { child } of servers.values()) child.kill();
  const best = (timings: Timing[]): Timing => ({
    wall: Math.min(...timings.map((t) => t.wall)),
    cpu: Math.min(...timings.map((t) => t.cpu)),
  });
  const rows = PASS_SETUPS.map((setup) => {
    const entry = results.get(setup.label) ?? { first: [], again: [] };
    return { ...setup, first: best(entry.first), again: best(entry.again) };
  });
  return { rows, feedKilobytes: Math.round((servers.get(LATENCY_MS)?.bytes ?? 0) / 1024) };
}

interface Extracted {
  items: number;
  title: number;
  link: number;
  date: number;
  author: number;
  image: number;
}

async function benchParse(corpusDir: string) {
  const files = fs
    .readdirSync(corpusDir)
    .filter((f) => /\.(xml|rss|atom|rdf)$/.test(f))
    .map((f) => fs.readFileSync(path.join(corpusDir, f)));
  const megabytes = files.reduce((n, b) => n + b.byteLength, 0) / 2 ** 20;

  const ours = async (): Promise<Extracted> => {
    const counts: Extracted = { items: 0, title: 0, link: 0, date: 0, author: 0, image: 0 };
    for (const body of files) {
      try {
        const feed = parseFeed(new Uint8Array(body));
        for (const item of feed.items) {
          const a = normalizeItem(item, {
            feedUrl: "https://example.org/feed",
            category: "local-news",
            baseUrl: "https://example.org/",
          });
          if (!a) continue;
          counts.items++;
          if (a.title && a.title !== "Untitled") counts.title++;
          if (a.link) counts.link++;
          if (a.date) counts.date++;
          if (a.author !== "Staff Writer") counts.author++;
          if (a.image) counts.image++;
        }
      } catch {
        // A feed that cannot be read counts as no items.
      }
    }
    return counts;
  };
  const parser = new Parser();
  const theirs = async (): Promise<Extracted> => {
    const counts: Extracted = { items: 0, title: 0, link: 0, date: 0, author: 0, image: 0 };
    for (const body of files) {
      try {
        const feed = await parser.parseString(body.toString("utf8"));
        for (const item of feed.items) {
          counts.items++;
          if (item.title) counts.title++;
          if (item.link) counts.link++;
          if (item.isoDate) counts.date++;
          if (item.creator || (item as { author?: string }).author) counts.author++;
          if (item.enclosure?.url) counts.image++;
        }
      } catch {
        // as above
      }
    }
    return counts;
  };

  const parseOnly = async (): Promise<null> => {
    for (const body of files) {
      try {
        parseFeed(new Uint8Array(body));
      } catch {
        // as above
      }
    }
    return null;
  };

  // Rounds alternate between the three so background load affects each alike; the best round counts.
  const runs = { parseOnly, ours, theirs };
  const best = { parseOnly: Infinity, ours: Infinity, theirs: Infinity };
  const oursFields = await ours();
  const theirFields = await theirs();
  for (let round = 0; round < 5; round++) {
    for (const key of ["parseOnly", "ours", "theirs"] as const) {
      const started = performance.now();
      await runs[key]();
      best[key] = Math.min(best[key], performance.now() - started);
    }
  }
  const mbPerSecond = (ms: number) => megabytes / (ms / 1000);
  return {
    files: files.length,
    megabytes,
    parseOnly: mbPerSecond(best.parseOnly),
    ours: { result: oursFields, mbPerSecond: mbPerSecond(best.ours) },
    rssParser: { result: theirFields, mbPerSecond: mbPerSecond(best.theirs) },
  };
}

const { rows: passes, feedKilobytes } = await benchPasses();
const corpus = path.resolve(process.env.FEED_CORPUS_DIR ?? "../shared/feed-corpus", "real");
const parse = fs.existsSync(corpus) ? await benchParse(corpus) : null;

const [baseline] = passes;
const passTable = formatMarkdownTable(
  [
    `pass (${FEEDS} feeds of ${feedKilobytes} KB on ${HOSTS} hosts, ${LATENCY_MS} ms latency unless said)`,
    "first pass",
    "vs sequential",
    "CPU",
    "second pass, every feed 304",
    "its CPU",
    "304 pass vs first pass (time / CPU)",
  ],
  passes.map(({ label, latencyMs, first, again }) => [
    label,
    `${first.wall.toFixed(0)} ms`,
    baseline && latencyMs === baseline.latencyMs
      ? `${(baseline.first.wall / first.wall).toFixed(1)}x`
      : "(other network)",
    `${first.cpu.toFixed(0)} ms`,
    `${again.wall.toFixed(0)} ms`,
    `${again.cpu.toFixed(0)} ms`,
    `${((again.wall / first.wall) * 100).toFixed(0)} % / ${((again.cpu / first.cpu) * 100).toFixed(0)} %`,
  ]),
);
const parseTable = parse
  ? formatMarkdownTable(
      [
        "parser",
        "MB/s",
        "items",
        "with title",
        "with link",
        "with date",
        "with author",
        "with image",
      ],
      [
        [
          "ours: parse (XML to items with every field read)",
          parse.parseOnly.toFixed(1),
          ...Object.values(parse.ours.result),
        ],
        [
          "ours: parse + normalise + sanitise (what ingest does)",
          parse.ours.mbPerSecond.toFixed(1),
          ...Object.values(parse.ours.result),
        ],
        [
          "rss-parser (parse only)",
          parse.rssParser.mbPerSecond.toFixed(1),
          ...Object.values(parse.rssParser.result),
        ],
      ],
    ) +
    `\n\n${parse.files} files, ${parse.megabytes.toFixed(1)} MB; our parser is ${(parse.parseOnly / parse.rssParser.mbPerSecond).toFixed(1)}x rss-parser's throughput, parse against parse; with normalising and sanitising every field too, ${(parse.ours.mbPerSecond / parse.rssParser.mbPerSecond).toFixed(1)}x. The field counts are of the articles each produces (ours after normalising; rss-parser's image is its enclosure, the only image it reads by default).`
  : `The real-world corpus was not found at ${corpus}: parse throughput NOT measured.`;

const body = `Machine: ${machineLine()}\n\n${passTable}\n\n${parseTable}\n\nEach time is the best of two rounds run alternately in one process; CPU is the process's user + system time during the pass (the embedded database runs in the same process). The second pass reuses the first pass's validators. Every request, 304s included, waits the same 200 ms, so a 304 pass saves the parsing and storing (its CPU column) but not the round trips, which bound its wall time (the 0 ms row shows a 304 pass's cost without them): at 6 feeds at once, 30 feeds take at least 5 × 200 ms, so the default cannot beat sequential by more than 6x; the 16-at-once row shows the same code with the limit raised. The feeds are one template (item i of every feed has the same opening), so a first pass also puts its 600 articles in story groups (decision 032): about 210 groups, a worst case for grouping that added 0.3-0.5 s of CPU to the 0 ms row in side-by-side runs on 2026-11-29 (grouping on realistic feeds: \`bench:grouping-cost\`).`;
console.log(body);
await writeSection("ingest", "Ingest (`npm run bench:ingest`)", body);
