/**
 * `npm run bench:grouping-cost`: what story grouping (server/grouping/store.ts) adds to an ingest pass's
 * CPU (issue #36: at most 1.3x). Each round stores the feeds anew in an empty embedded database
 * (`runIngestPass`, which groups the new articles at its end), then takes the groups apart and groups the
 * same articles again alone; the pass without grouping is the first less the second. Two sets of feeds:
 * the bundled sample feeds, and the real-feed corpus (`FEED_CORPUS_DIR`), whose same-day captures of
 * national outlets make many candidates. Rounds alternate; the median is reported.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { sql } from "drizzle-orm";
import { openDatabase, rowsOf, type DatabaseHandle } from "../server/db/client";
import { articles, feeds, storyGroups } from "../server/db/schema";
import { loadFeedSources, type FeedSource } from "../server/ingest/feeds-config";
import { runIngestPass } from "../server/ingest/ingest";
import { groupNewArticles } from "../server/grouping/store";
import { corpusPresent, REAL_DIR } from "./grouping/corpus";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const ROUNDS = Number(process.env.GROUPING_COST_ROUNDS ?? 5);
const logger = pino({ level: "silent" });
const TARGET = 1.3;

const cpuMs = async (work: () => Promise<unknown>): Promise<number> => {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface FeedSet {
  label: string;
  sources: FeedSource[];
}

const sets: FeedSet[] = [
  { label: "sample feeds", sources: loadFeedSources("config/feeds.sample.json") },
];
if (corpusPresent()) {
  // Every feed file of the corpus, as a local file each (as the sample feeds are read).
  const files = fs
    .readdirSync(REAL_DIR)
    .filter((f) => !f.endsWith(".tsv") && !f.endsWith(".md"))
    .sort();
  sets.push({
    label: `real-feed corpus (${files.length} feeds)`,
    sources: files.map((f) => ({ url: path.join(REAL_DIR, f), category: "national-news" })),
  });
} else {
  console.log(`feed corpus not found at ${REAL_DIR}: measuring the sample feeds only`);
}

async function measure(database: DatabaseHandle, set: FeedSet) {
  const passes: number[] = [];
  const groupings: number[] = [];
  let stored = 0;
  let grouped = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await database.db.delete(articles);
    await database.db.delete(storyGroups);
    await database.db.delete(feeds);
    passes.push(
      await cpuMs(() =>
        runIngestPass(set.sources, {
          database,
          logger,
          siteUrl: "http://127.0.0.1:3000",
          siteName: "Bench",
          force: true,
        }),
      ),
    );
    const ids = (await database.db.select({ id: articles.id }).from(articles)).map((r) => r.id);
    stored = ids.length;
    grouped = Number(
      rowsOf<{ n: number }>(
        await database.db.execute(
          sql`SELECT count(*)::int AS n FROM articles WHERE story_group IS NOT NULL`,
        ),
      )[0]?.n ?? 0,
    );
    await database.db.execute(
      sql`UPDATE articles SET story_group = NULL, group_lead = true, category_lead = true,
                              also_covered_by = NULL`,
    );
    await database.db.delete(storyGroups);
    groupings.push(await cpuMs(() => database.db.transaction((tx) => groupNewArticles(tx, ids))));
  }
  const pass = median(passes);
  const grouping = median(groupings);
  return { pass, grouping, ratio: pass / Math.max(1, pass - grouping), stored, grouped };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-grouping-cost-"));
const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "bench" });
await database.migrate();
const rows: (string | number)[][] = [];
const verdicts: string[] = [];
try {
  for (const set of sets) {
    const m = await measure(database, set);
    rows.push([
      set.label,
      m.stored,
      m.grouped,
      `${m.pass.toFixed(0)} ms`,
      `${m.grouping.toFixed(0)} ms`,
      `${m.ratio.toFixed(2)}x`,
    ]);
    verdicts.push(
      `${m.ratio <= TARGET ? "PASS" : "MISS"}: ${set.label}: the pass costs ${m.ratio.toFixed(2)}x its CPU without grouping (target ≤ ${TARGET}x)`,
    );
  }
} finally {
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const table = formatMarkdownTable(
  [
    "Feeds (first pass, all new)",
    "Articles stored",
    "In groups",
    "Pass CPU",
    "Grouping CPU",
    "Pass / pass without grouping",
  ],
  rows,
);
console.log(table);
for (const v of verdicts) console.log(v);
await writeSection(
  "grouping-cost",
  "What story grouping adds to an ingest pass (`npm run bench:grouping-cost`)",
  `${machineLine()}\n\n${table}\n\n${verdicts.map((v) => `- ${v}`).join("\n")}\n\nA first pass over every feed in an empty embedded database (the worst case: every article is new, and each is matched against all the others of its window), median of ${ROUNDS} rounds of process CPU (user + system). The grouping column is the same articles grouped again alone after the groups are taken apart; the pass without grouping is the pass less it. A later pass matches only its new articles (a few dozen) against a window read once, bounded at 5,000.`,
);
