import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf, type Database } from "../db/client";
import { articles, feeds } from "../db/schema";
import { reportSkippedPostgres, testDatabases, type TestDatabase } from "../db/test-databases";
import type { FeedSource } from "../ingest/feeds-config";
import { runIngestPass } from "../ingest/ingest";
import { MAX_ITEMS_PER_FEED } from "../ingest/store";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";

/**
 * The store failing under an ingest pass: the database refusing a write part-way through a feed, and
 * the process killed (-9) in the middle of a pass over the embedded database. Nothing half-written
 * may remain, and the next pass must store everything.
 */

reportSkippedPostgres();

const logger = pino({ level: "silent" });
const SITE_URL = "http://127.0.0.1:3000";
const T1 = new Date("2026-11-20T08:00:00Z");
const T2 = new Date("2026-11-20T09:00:00Z");
const T3 = new Date("2026-11-20T10:00:00Z");

type ArticleRow = typeof articles.$inferSelect;

/**
 * A fresh embedded database costs an initdb, the slowest step of these tests: it is made (and
 * migrated) once, and each test that needs one gets a copy of the closed directory.
 */
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-db-faults-"));
const template = path.join(workDir, "template");
beforeAll(async () => {
  const handle = await openDatabase({ kind: "pglite", dataDir: template }, { owner: "the test" });
  await handle.migrate();
  await handle.close();
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

function copyOfTemplate(): string {
  const dataDir = fs.mkdtempSync(path.join(workDir, "data-"));
  fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

const databases: TestDatabase[] = testDatabases().map((database) =>
  database.name !== "pglite"
    ? database
    : {
        name: "pglite",
        async open() {
          const handle = await openDatabase(
            { kind: "pglite", dataDir: copyOfTemplate() },
            { owner: "a test" },
          );
          return { ...handle, dispose: () => handle.close() };
        },
      },
);

interface Item {
  guid: string;
  title: string;
  description?: string;
  date?: string;
}

/**
 * What each feed's items tell: two unrelated beats, so story grouping (decision 032) never puts a
 * story of one feed with the other's and every write a pass makes to a feed is its own store's.
 */
const BEATS: Record<string, string> = {
  a: "What happened at the harbor, told at some length",
  b: "Notes from the school board meeting, written in full",
};

const item = (feed: string, n: number, title = `${feed} story ${n}`): Item => ({
  guid: `${feed}-${n}`,
  title,
  description: `${BEATS[feed] ?? feed} (${n}).`,
  date: new Date(Date.UTC(2026, 10, 1 + n, 12)).toUTCString(),
});

/**
 * A stored article as a reader sees it: every field but the bookkeeping that depends on its history
 * (when it was first seen and updated, and its id, which an edited item keeps from its first version).
 */
function content(row: ArticleRow, feedUrls: Map<number | null, string>) {
  const { id: _id, firstSeenAt: _seen, updatedAt: _updated, feedId, ...rest } = row;
  return { ...rest, feed: feedUrls.get(feedId) };
}

const byGuid = (a: { guid: string | null }, b: { guid: string | null }) =>
  (a.guid ?? "").localeCompare(b.guid ?? "");

async function feedUrlsOf(db: Database) {
  const rows = await db.select({ id: feeds.id, url: feeds.url }).from(feeds);
  return new Map<number | null, string>(rows.map((r) => [r.id, r.url]));
}

/** Complete: every field a page shows is there and the search document was built. */
function expectComplete(row: ArticleRow) {
  for (const field of ["id", "title", "link", "excerpt", "content", "author"] as const) {
    expect(row[field].trim(), `${row.id}.${field}`).not.toBe("");
  }
  expect(row.content).toContain("Read full article");
  expect(Number.isNaN(row.publishedAt.getTime())).toBe(false);
  expect(row.feedId).not.toBeNull();
  expect(row.search).toBeTruthy();
}

describe.each(databases)("a feed's store interrupted by the database on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  const bodies = new Map<string, string>();

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    server = await startFixtureServer();
    for (const name of ["a", "b"]) {
      server.route(`/${name}.xml`, (req, res) => {
        const body = bodies.get(name) ?? "";
        const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
        if (req.headers["if-none-match"] === etag) {
          res.writeHead(304).end();
          return;
        }
        res.writeHead(200, { "content-type": "application/rss+xml", etag }).end(body);
      });
    }
  });
  afterAll(async () => {
    await handle?.db.execute(sql`DROP TRIGGER IF EXISTS refuse_article ON articles`);
    await server?.close();
    await handle?.dispose();
  });

  const sources = (): FeedSource[] => [
    { url: server.url("/a.xml"), category: "politics" },
    { url: server.url("/b.xml"), category: "business" },
  ];
  const pass = (now: Date) =>
    runIngestPass(sources(), {
      database: handle,
      logger,
      siteUrl: SITE_URL,
      siteName: "Test Ledger",
      now: () => now,
    });
  const allArticles = () => handle.db.select().from(articles).orderBy(articles.id);
  const feedRow = async (name: string) => {
    const [row] = await handle.db
      .select()
      .from(feeds)
      .where(eq(feeds.url, server.url(`/${name}.xml`)));
    if (!row) throw new Error(`no feed ${name}`);
    return row;
  };

  // Feed a: three stories, then two of them edited and three new ones; feed b: one new story.
  const firstA = [0, 1, 2].map((n) => item("a", n));
  const laterA = [
    item("a", 0, "a story 0, corrected"),
    item("a", 1, "a story 1, updated"),
    item("a", 2),
    ...[3, 4, 5].map((n) => item("a", n)),
  ];
  const firstB = [0, 1].map((n) => item("b", n));
  const laterB = [...firstB, item("b", 2)];

  it("rolls back a feed's every write, records why, and stores it all on the next pass", async () => {
    // What a clean pass over the later feeds stores, on this kind of database.
    bodies.set("a", rssFeed("A", laterA));
    bodies.set("b", rssFeed("B", laterB));
    expect(await pass(T3)).toMatchObject({ failed: 0, inserted: 9 });
    const cleanUrls = await feedUrlsOf(handle.db);
    const clean = (await allArticles()).sort(byGuid).map((row) => content(row, cleanUrls));
    await handle.db.delete(articles);
    await handle.db.delete(feeds);

    // First pass: the earlier versions.
    bodies.set("a", rssFeed("A", firstA));
    bodies.set("b", rssFeed("B", firstB));
    expect(await pass(T1)).toMatchObject({ failed: 0, inserted: 5 });
    const first = await allArticles();
    const firstFeedA = await feedRow("a");

    // Second pass: the database refuses story a-4, part-way through feed a's writes. By then the
    // edits of a-0 and a-1 are written, and a-5 went in just before it in the same statement.
    await handle.db.execute(sql`
      CREATE OR REPLACE FUNCTION refuse_article() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'could not write article %: no space left on device', NEW.guid;
      END $$`);
    await handle.db.execute(sql`
      CREATE TRIGGER refuse_article BEFORE INSERT OR UPDATE ON articles
      FOR EACH ROW WHEN (NEW.guid = 'a-4') EXECUTE FUNCTION refuse_article()`);
    bodies.set("a", rssFeed("A", laterA));
    bodies.set("b", rssFeed("B", laterB));
    const interrupted = await pass(T2);
    const error = "Storage error: could not write article a-4: no space left on device";
    expect(interrupted).toMatchObject({ fetched: 1, failed: 1, inserted: 1, updated: 0 });
    expect(interrupted.feeds.find((f) => f.url === server.url("/a.xml"))).toMatchObject({
      outcome: "store-failed",
      status: 200,
      error,
    });

    // Feed a is exactly as the first pass left it: no edit, no new story, nothing half-written.
    const afterFault = await allArticles();
    const feedA = firstFeedA.id;
    expect(afterFault.filter((r) => r.feedId === feedA)).toEqual(
      first.filter((r) => r.feedId === feedA),
    );
    // Feed b, stored in its own transaction, got its new story; its earlier ones are untouched.
    const afterB = afterFault.filter((r) => r.feedId !== feedA);
    expect(afterB.map((r) => r.guid).sort()).toEqual(["b-0", "b-1", "b-2"]);
    for (const row of first.filter((r) => r.feedId !== feedA)) expect(afterB).toContainEqual(row);
    afterFault.forEach(expectComplete);

    // The failure is on the feed, and its validators are the first pass's: the next pass reads it whole.
    expect(await feedRow("a")).toMatchObject({
      lastStatus: 200,
      lastError: error,
      consecutiveFailures: 1,
      dead: false,
      lastAttemptAt: T2,
      lastSuccessAt: T1,
      etag: firstFeedA.etag,
    });

    // Third pass, the database healthy again: everything lands, as a clean pass stores it.
    await handle.db.execute(sql`DROP TRIGGER refuse_article ON articles`);
    const recovered = await pass(T3);
    expect(recovered).toMatchObject({ failed: 0, inserted: 3, updated: 2, notModified: 1 });
    expect(await feedRow("a")).toMatchObject({ lastError: null, consecutiveFailures: 0 });
    const final = await allArticles();
    final.forEach(expectComplete);
    const urls = await feedUrlsOf(handle.db);
    expect(final.sort(byGuid).map((row) => content(row, urls))).toEqual(clean);
    // Ids kept from the first version; first seen when first stored; updated when edited.
    const history = Object.fromEntries(
      final.map((r) => [r.guid, [r.id, r.firstSeenAt, r.updatedAt]]),
    );
    const firstId = (guid: string) => first.find((r) => r.guid === guid)?.id;
    expect(history).toMatchObject({
      "a-0": [firstId("a-0"), T1, T3],
      "a-1": [firstId("a-1"), T1, T3],
      "a-2": [firstId("a-2"), T1, T1],
      "a-4": [expect.any(String), T3, T3],
      "b-2": [expect.any(String), T2, T2],
    });
  });
});

describe("kill -9 during an ingest pass on the embedded database", () => {
  const FEEDS = 8;
  const root = path.resolve(".");
  let server: FixtureServer;

  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server?.close());

  /** Fifteen stories with long bodies, so that storing a feed takes a while. */
  const feedBody = (f: number) =>
    rssFeed(
      `Feed ${f}`,
      Array.from({ length: MAX_ITEMS_PER_FEED }, (_, n) => ({
        guid: `f${f}-${n}`,
        title: `Feed ${f} story ${n}`,
        description: `&lt;p&gt;${`Paragraph of feed ${f} story ${n}. `.repeat(100)}&lt;/p&gt;`,
        date: new Date(Date.UTC(2026, 10, 1, n)).toUTCString(),
      })),
    );

  it("leaves a directory that reopens with each feed stored whole or not at all", async () => {
    const dataDir = copyOfTemplate();
    const feedsFile = path.join(workDir, "feeds.json");
    const sources: FeedSource[] = Array.from({ length: FEEDS }, (_, f) => ({
      url: server.url(`/feed-${f}.xml`),
      category: f % 2 === 0 ? "politics" : "business",
    }));
    fs.writeFileSync(
      feedsFile,
      JSON.stringify({
        politics: sources.filter((s) => s.category === "politics").map((s) => s.url),
        business: sources.filter((s) => s.category === "business").map((s) => s.url),
      }),
    );

    const { DATABASE_URL: _postgres, ...env } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", "ingest", "--force"], {
      cwd: root,
      env: {
        ...env,
        NODE_ENV: "production",
        SITE_URL,
        DATA_DIR: dataDir,
        FEEDS_FILE: feedsFile,
        INGEST_CONCURRENCY: "2",
        LOG_LEVEL: "error",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const storedFeeds = () => output.split("\n").filter((line) => line.startsWith("✔"));

    // Once a few feeds are stored, the next one is served and the process killed while it parses and
    // writes it; the feeds asked for after that are never answered, so the pass cannot end first.
    let phase: "storing" | "killing" | "killed" = "storing";
    for (let f = 0; f < FEEDS; f++) {
      server.route(`/feed-${f}.xml`, (_req, res) => {
        if (phase === "killing") return;
        if (phase === "storing" && storedFeeds().length >= 3) {
          phase = "killing";
          res.on("finish", () => setTimeout(() => child.kill("SIGKILL"), 15));
        }
        res.writeHead(200, { "content-type": "application/rss+xml" }).end(feedBody(f));
      });
    }
    expect(await exited, output).toBe("SIGKILL");
    phase = "killed";
    const storedBeforeKill = storedFeeds();
    expect(storedBeforeKill.length).toBeGreaterThanOrEqual(3);
    expect(storedBeforeKill.length).toBeLessThan(FEEDS);

    // The dead process's lock file is still there, and is taken over.
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "news.lock"), "utf8")) as {
      pid: number;
    };
    expect(lock.pid).toBe(child.pid);
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    try {
      const db = handle.db;
      const rows = await db.select().from(articles).orderBy(articles.id);
      rows.forEach(expectComplete);
      const [counted] = rowsOf<{ n: number }>(
        await db.execute(sql`SELECT count(*)::int AS n FROM articles`),
      );
      expect(counted?.n).toBe(rows.length);
      // The indexes agree with the table.
      const byIndex = rowsOf<{ id: string }>(
        await db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL enable_seqscan = off`);
          return tx.execute(sql`SELECT id FROM articles ORDER BY id`);
        }),
      );
      expect(byIndex.map((r) => r.id)).toEqual(rows.map((r) => r.id));

      // Each feed whole or absent; every feed reported stored before the kill is there.
      const urls = await feedUrlsOf(db);
      const perFeed = new Map<string, number>();
      for (const row of rows) {
        const url = urls.get(row.feedId) ?? "?";
        perFeed.set(url, (perFeed.get(url) ?? 0) + 1);
      }
      for (const count of perFeed.values()) expect(count).toBe(MAX_ITEMS_PER_FEED);
      for (const line of storedBeforeKill) {
        const url = sources.find((s) => line.includes(`${s.url} `))?.url;
        expect(perFeed.get(url ?? "?"), line).toBe(MAX_ITEMS_PER_FEED);
      }

      // A fresh pass completes and stores the rest.
      const summary = await runIngestPass(sources, {
        database: handle,
        logger,
        siteUrl: SITE_URL,
        siteName: "Test Ledger",
        force: true,
      });
      expect(summary.feeds.filter((f) => f.error !== null)).toEqual([]);
      expect(summary).toMatchObject({
        fetched: FEEDS,
        failed: 0,
        inserted: FEEDS * MAX_ITEMS_PER_FEED - rows.length,
      });
      const after = await db.select().from(articles);
      expect(after).toHaveLength(FEEDS * MAX_ITEMS_PER_FEED);
      after.forEach(expectComplete);
      expect(new Set(after.map((r) => r.link)).size).toBe(after.length);
    } finally {
      await handle.close();
    }
    expect(fs.existsSync(path.join(dataDir, "news.lock"))).toBe(false);
  }, 120_000);
});
