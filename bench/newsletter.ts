/**
 * `npm run bench:newsletter`: a digest to 10,000 confirmed readers through an SMTP server on
 * 127.0.0.1 (smtp-server, taking every message), sent by a real `news newsletter send` process on
 * the embedded database: messages per second, the sender's peak memory, and, for a second issue
 * killed (SIGKILL) a third of the way through, the time from starting the resuming process to its
 * first message and to the end. Writes its section of docs/BENCHMARKS.md.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../server/db/client";
import { newsletterSubscribers } from "../server/db/schema";
import { upsertArticle } from "../server/news/repository";
import { startTestSmtp } from "../server/test-support/smtp";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const READERS = Number(process.env.BENCH_READERS ?? 10_000);
const TARGETS = { perSecond: 200, growthMb: 64, resumeSeconds: 5 };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-bench-newsletter-"));
process.on("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));

console.log(`Storing 12 stories and ${READERS} confirmed readers…`);
const handle = await openDatabase(
  { kind: "pglite", dataDir },
  { owner: "the newsletter benchmark" },
);
await handle.migrate();
for (let i = 0; i < 12; i++) {
  await upsertArticle(handle.db, {
    id: `story-${i}`,
    category: ["local-news", "national-news", "world-news", "business", "technology"][i % 5] ?? "",
    link: `https://feeds.example.org/${i}`,
    title: `Story number ${i} of the day, with a headline of ordinary length`,
    excerpt: "An excerpt of two sentences, as feeds give them. It is shown under the headline.",
    content: "<p>Body</p>",
    image: null,
    author: "Staff",
    publishedAt: new Date(Date.now() - i * 600_000),
  });
}
for (let start = 0; start < READERS; start += 1000) {
  await handle.db.insert(newsletterSubscribers).values(
    Array.from({ length: Math.min(1000, READERS - start) }, (_, i) => ({
      email: `reader${start + i}@example.com`,
      status: "confirmed",
      confirmedAt: new Date(),
    })),
  );
}
await handle.close();

const smtp = await startTestSmtp({ countOnly: true });

/** One `news newsletter send`, its peak resident memory sampled every 50 ms. */
function send(killAfter?: number) {
  const started = performance.now();
  const base = smtp.count();
  let firstAt: number | null = null;
  let peak = 0;
  let atFirst = 0;
  const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", "newsletter", "send"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      SITE_URL: "https://news.example.com",
      NEWSLETTER_FROM: "news@example.com",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const sampler = setInterval(() => {
    if (killAfter !== undefined && smtp.count() - base >= killAfter) child.kill("SIGKILL");
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
      if (firstAt === null && smtp.count() > base) {
        firstAt = performance.now();
        atFirst = kb / 1024;
      }
    } catch {
      // Gone.
    }
  }, 5);
  return new Promise<{
    code: number | null;
    seconds: number;
    toFirst: number;
    messages: number;
    peakMb: number;
    /** Resident memory when the first message went: the database and code, before sending. */
    firstMb: number;
    output: string;
  }>((resolve) =>
    child.on("exit", (code) => {
      clearInterval(sampler);
      const end = performance.now();
      resolve({
        code,
        seconds: (end - started) / 1000,
        toFirst: ((firstAt ?? end) - started) / 1000,
        messages: smtp.count() - base,
        peakMb: peak,
        firstMb: atFirst,
        output: output.trim(),
      });
    }),
  );
}

console.log("Sending the first issue…");
const full = await send();
if (full.code !== 0 || full.messages !== READERS) {
  throw new Error(`the send failed: ${full.output} (${full.messages} messages)`);
}
// Messages per second once sending has begun (start-up of the process left out).
const perSecond = full.messages / (full.seconds - full.toFirst);
console.log(full.output);

console.log("Sending a second issue, killed a third of the way…");
const killed = await send(Math.floor(READERS / 3));
const resumed = await send();
if (resumed.code !== 0) throw new Error(`the resumed send failed: ${resumed.output}`);
const handedOver = killed.messages + resumed.messages;
console.log(resumed.output);
await smtp.close();

const verdicts = [
  `${perSecond >= TARGETS.perSecond ? "PASS" : "MISS"}: ${Math.round(perSecond)} messages per second (target ≥ ${TARGETS.perSecond})`,
  `${full.peakMb - full.firstMb <= TARGETS.growthMb ? "PASS" : "MISS"}: sender's memory grew ${Math.round(full.peakMb - full.firstMb)} MB while sending ${READERS} messages, to ${Math.round(full.peakMb)} MB (target: growth ≤ ${TARGETS.growthMb} MB)`,
  `${resumed.toFirst <= TARGETS.resumeSeconds ? "PASS" : "MISS"}: resumed sending ${resumed.toFirst.toFixed(2)} s after the new process started (target ≤ ${TARGETS.resumeSeconds} s)`,
];
const body = [
  `Machine: ${machineLine()}`,
  "",
  formatMarkdownTable(
    [
      "run",
      "messages",
      "first message after (s)",
      "whole run (s)",
      "messages / s",
      "peak RSS (MB)",
    ],
    [
      [
        `issue 1, ${READERS} readers`,
        full.messages,
        full.toFirst.toFixed(2),
        full.seconds.toFixed(2),
        Math.round(perSecond),
        Math.round(full.firstMb),
        Math.round(full.peakMb),
      ],
      [
        "issue 2, killed (SIGKILL)",
        killed.messages,
        killed.toFirst.toFixed(2),
        killed.seconds.toFixed(2),
        "",
        Math.round(killed.firstMb),
        Math.round(killed.peakMb),
      ],
      [
        "issue 2, resumed",
        resumed.messages,
        resumed.toFirst.toFixed(2),
        resumed.seconds.toFixed(2),
        Math.round(resumed.messages / (resumed.seconds - resumed.toFirst)),
        Math.round(resumed.firstMb),
        Math.round(resumed.peakMb),
      ],
    ],
  ),
  "",
  ...verdicts.map((v) => `- ${v}`),
  `- Issue 2: ${handedOver} messages for ${READERS} readers, ${handedOver - READERS} handed over twice (in flight at the kill, same Message-ID).`,
  "",
  "Each run is a `news newsletter send` process (`node --import tsx`, so its start includes compiling TypeScript) on the embedded database, sending through nodemailer's SMTP pool (4 connections) to smtp-server on 127.0.0.1, which takes every message at once. Messages per second count from the first message to the end; memory is the process's resident set, sampled every 5 ms; most of it is the embedded database (PGlite, PostgreSQL in WebAssembly), there before the first message, so the target is on what sending adds. The resumed run's first message comes after start-up, opening the database (PGlite recovers it after the kill) and finding the unfinished issue.",
].join("\n");
for (const verdict of verdicts) console.log(verdict);
await writeSection(
  "newsletter",
  "Newsletter digest to 10,000 readers (`npm run bench:newsletter`)",
  body,
);
