/**
 * `npm run bench:ingest`: a full ingest pass against the sequential one-at-a-time baseline, a pass
 * where every feed answers 304, and parse throughput against rss-parser on the real-world corpus.
 */
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
import type { PoolLimits } from "../server/ingest/pool";
import { rssFeed, startFixtureServer, type FixtureServer } from "../server/ingest/test-server";
import { formatMarkdownTable, machineLine, writeSection } from "./report";

const FEEDS = 30;
const HOSTS = 15;
const LATENCY_MS = 200;
const logger = pino({ level: "silent" });

async function startFeedServers(): Promise<FixtureServer[]> {
  const servers = await Promise.all(Array.from({ length: HOSTS }, () => startFixtureServer()));
  servers.forEach((server, s) => {
    for (let f = 0; f < FEEDS / HOSTS; f++) {
      const name = `feed-${s}-${f}`;
      const body = rssFeed(
        `Bench ${name}`,
        Array.from({ length: 20 }, (_, i) => ({
          guid: `${name}-${i}`,
          title: `Story ${i} of ${name}`,
          description:
            `<p>Paragraph about story ${i} with <a href="https://example.org/${i}">a link</a>.</p>`.repeat(
              4,
            ),
          date: new Date(Date.UTC(2026, 10, 1 + (i % 20), 8)).toUTCString(),
        })),
      );
      server.route(`/${name}.xml`, async (req, res) => {
        await new Promise((r) => setTimeout(r, LATENCY_MS));
        if (req.headers["if-none-match"] === `"${name}"`) {
          res.writeHead(304).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/rss+xml", etag: `"${name}"` }).end(body);
      });
    }
  });
  return servers;
}

async function benchPasses() {
  const servers = await startFeedServers();
  const sources: FeedSource[] = servers.flatMap((server, s) =>
    Array.from({ length: FEEDS / HOSTS }, (_, f) => ({
      url: server.url(`/feed-${s}-${f}.xml`),
      category: "local-news" as const,
    })),
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ingest-"));
  const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "bench" });
  await database.migrate();

  const timePass = async (limits: PoolLimits, fresh: boolean) => {
    if (fresh) {
      await database.db.delete(articles);
      await database.db.delete(feeds);
    }
    const started = performance.now();
    const summary = await runIngestPass(sources, {
      database,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      force: true,
      limits,
    });
    return { ms: performance.now() - started, summary };
  };

  const runs = {
    sequential: [] as number[],
    ours: [] as number[],
    ours304: [] as number[],
    sequential304: [] as number[],
  };
  for (let round = 0; round < 2; round++) {
    runs.sequential.push((await timePass({ global: 1, perHost: 1 }, true)).ms);
    runs.sequential304.push((await timePass({ global: 1, perHost: 1 }, false)).ms);
    const full = await timePass({ global: 6, perHost: 2 }, true);
    if (full.summary.fetched !== FEEDS)
      throw new Error(`only ${full.summary.fetched} feeds fetched`);
    runs.ours.push(full.ms);
    const again = await timePass({ global: 6, perHost: 2 }, false);
    if (again.summary.notModified !== FEEDS) throw new Error("the second pass was not all 304s");
    runs.ours304.push(again.ms);
  }
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await Promise.all(servers.map((s) => s.close()));
  const best = (key: keyof typeof runs) => Math.min(...runs[key]);
  return {
    sequential: best("sequential"),
    ours: best("ours"),
    ours304: best("ours304"),
    sequential304: best("sequential304"),
  };
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

  const time = async (fn: () => Promise<Extracted>) => {
    const result = await fn();
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await fn();
      best = Math.min(best, performance.now() - started);
    }
    return { result, mbPerSecond: megabytes / (best / 1000) };
  };
  // Alternate so background load affects both alike.
  const a = await time(ours);
  const b = await time(theirs);
  return { files: files.length, megabytes, ours: a, rssParser: b };
}

const passes = await benchPasses();
const corpus = path.resolve(process.env.FEED_CORPUS_DIR ?? "../shared/feed-corpus", "real");
const parse = fs.existsSync(corpus) ? await benchParse(corpus) : null;

const passTable = formatMarkdownTable(
  ["pass (30 feeds on 15 hosts, 200 ms latency)", "time", "vs sequential"],
  [
    ["sequential, one at a time (the spec's way)", `${passes.sequential.toFixed(0)} ms`, "1.0x"],
    [
      "ours: 6 at once, 2 per host",
      `${passes.ours.toFixed(0)} ms`,
      `${(passes.sequential / passes.ours).toFixed(1)}x faster`,
    ],
    [
      "ours, second pass: every feed answers 304",
      `${passes.ours304.toFixed(0)} ms`,
      `${((passes.ours304 / passes.ours) * 100).toFixed(0)} % of our first pass`,
    ],
    [
      "sequential, second pass with 304s",
      `${passes.sequential304.toFixed(0)} ms`,
      `${((passes.sequential304 / passes.sequential) * 100).toFixed(0)} % of its first pass`,
    ],
  ],
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
          "ours (parse + normalise + sanitise)",
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
    `\n\n${parse.files} files, ${parse.megabytes.toFixed(1)} MB; ours is ${(parse.ours.mbPerSecond / parse.rssParser.mbPerSecond).toFixed(1)}x rss-parser's throughput.`
  : `The real-world corpus was not found at ${corpus}: parse throughput NOT measured.`;

const body = `Machine: ${machineLine()}\n\n${passTable}\n\n${parseTable}\n\nEach time is the best of two rounds run alternately in one process; the second pass reuses the first pass's validators. Every request, 304s included, waits the same 200 ms, so a 304 pass saves parsing and storing but not the round trips.`;
console.log(body);
writeSection("ingest", "Ingest (`npm run bench:ingest`)", body);
