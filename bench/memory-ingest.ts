/**
 * `npm run bench:memory`: does memory grow with ingest passes? Opens the embedded database of a site
 * that already holds the bundled sample feeds, as the web process does, and runs 10 forced passes
 * over config/feeds.sample.json in this process, reading its RSS after a full garbage collection
 * before the passes and after each.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { openDatabase } from "../server/db/client";
import { loadFeedSources } from "../server/ingest/feeds-config";
import { runIngestPass } from "../server/ingest/ingest";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const PASSES = 10;
const TARGET_GROWTH = 0.1;
const FEEDS_FILE = "config/feeds.sample.json";
const SITE_URL = "http://127.0.0.1:3000";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // Run again with the collector exposed, so every reading follows a full collection.
  const again = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url)],
    { stdio: "inherit" },
  );
  process.exit(again.status ?? 1);
}

interface Sample {
  label: string;
  rss: number;
  heap: number;
  external: number;
  note: string;
}

const MB = 2 ** 20;
function sample(label: string, note = ""): Sample {
  // Twice: what a first collection finalises, the second frees.
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return {
    label,
    rss: usage.rss / MB,
    heap: usage.heapUsed / MB,
    external: (usage.external + usage.arrayBuffers) / MB,
    note,
  };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-memory-"));
const dataDir = path.join(work, "data");
const samples: Sample[] = [];
let feedCount = 0;
try {
  // The site's database as a running site has it: the sample feeds already stored (another process).
  const prepare = spawnSync(
    process.execPath,
    ["--import", "tsx", "cli/news.ts", "ingest", "--force"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL"),
        ),
        DATA_DIR: dataDir,
        FEEDS_FILE,
        SITE_URL,
        LOG_LEVEL: "warn",
      },
    },
  );
  if (prepare.status !== 0) throw new Error("loading the sample feeds failed");

  const started = sample("process started, database not open");
  const database = await openDatabase({ kind: "pglite", dataDir }, { owner: "bench" });
  await database.migrate();
  const sources = loadFeedSources(path.resolve(FEEDS_FILE));
  feedCount = sources.length;
  const logger = pino({ level: "silent" });
  samples.push(started, sample("database open (before the passes)"));
  for (let pass = 1; pass <= PASSES; pass++) {
    const summary = await runIngestPass(sources, {
      database,
      logger,
      siteUrl: SITE_URL,
      siteName: "Test Ledger",
      force: true,
    });
    samples.push(
      sample(
        `after pass ${pass}`,
        `${summary.fetched} fetched, ${summary.notModified} not modified, ${summary.failed} failed; ${summary.inserted} new, ${summary.updated} updated`,
      ),
    );
  }
  await database.close();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const before = samples[1];
const first = samples[2];
const after = samples[samples.length - 1];
if (!before || !first || !after) throw new Error("no samples");
const growth = (after.rss - before.rss) / before.rss;
const sinceFirst = (after.rss - first.rss) / first.rss;
const pass = growth <= TARGET_GROWTH;
const percent = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value * 100).toFixed(1)} %`;
const table = formatMarkdownTable(
  ["moment", "RSS", "JS heap used", "external + array buffers", "pass"],
  samples.map((s) => [
    s.label,
    `${s.rss.toFixed(1)} MB`,
    `${s.heap.toFixed(1)} MB`,
    `${s.external.toFixed(1)} MB`,
    s.note,
  ]),
);
const verdict = `${pass ? "PASS" : "MISS"}: RSS ${before.rss.toFixed(1)} MB before ${PASSES} ingest passes, ${after.rss.toFixed(1)} MB after: ${percent(growth)} (target ≤ +${TARGET_GROWTH * 100} %)`;
const body = `Machine: ${machineLine()}

${table}

- ${verdict}

${PASSES} passes of \`runIngestPass\` with \`force: true\` over \`${FEEDS_FILE}\` (${feedCount} feeds, local files) in one process (\`node --expose-gc\`), on an embedded database that already held them (stored by \`news ingest\` in another process first, as a running site's database does). Each reading follows two full collections. Between the first pass and the last, RSS moved ${percent(sinceFirst)}: what the first pass adds once (code compiled, the database's caches filled) is in the headline number, a leak would show as growth from pass to pass.`;
console.log(`\n${body}\n`);
await writeSection("memory-ingest", "Memory over ingest passes (`npm run bench:memory`)", body);
