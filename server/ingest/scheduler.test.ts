import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds, upkeepRuns } from "../db/schema";
import { mergePendingSearchEntries } from "../news/search-window";
import { endLockHolder, testDatabases } from "../db/test-databases";
import { INGEST_LOCK_ID, type IngestSummary } from "./ingest";
import { LOCK_LOST_MESSAGE, startScheduler, withJitter } from "./scheduler";
import { rssFeed, startFixtureServer, type FixtureServer } from "./test-server";

describe("withJitter", () => {
  it("stays within ±10 %", () => {
    expect(withJitter(60_000, () => 0)).toBe(54_000);
    expect(withJitter(60_000, () => 0.5)).toBe(60_000);
    expect(withJitter(60_000, () => 1)).toBe(66_000);
  });
});

describe("scheduler in the web process", () => {
  let server: FixtureServer;
  let handle: Awaited<ReturnType<ReturnType<typeof testDatabases>[number]["open"]>>;

  beforeAll(async () => {
    server = await startFixtureServer();
    server.route("/feed.xml", (_req, res) =>
      res.writeHead(200).end(rssFeed("F", [{ guid: "1", title: "One" }])),
    );
    const database = testDatabases()[0];
    if (!database) throw new Error("no test database");
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(async () => {
    await server.close();
    await handle.dispose();
  });

  it("runs a pass right after start-up, then every interval, until stopped", async () => {
    const passes: number[] = [];
    const scheduler = startScheduler({
      database: handle,
      logger: pino({ level: "silent" }),
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      sources: [{ url: server.url("/feed.xml"), category: "local-news" }],
      // 60 ms between passes, so the test sees several.
      intervalMinutes: 0.001,
      concurrency: 6,
      onPass: (summary) => passes.push(summary.fetched + summary.notDue),
    });
    await expect.poll(() => passes.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await scheduler.stop();
    const stoppedAt = passes.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passes.length).toBe(stoppedAt);
    expect(server.hits("/feed.xml")).toBeGreaterThanOrEqual(1);
    // The first pass was followed by the day's upkeep: the stories' search entries are merged.
    expect(await handle.db.select().from(upkeepRuns)).toHaveLength(1);
    expect(await mergePendingSearchEntries(handle.db)).toBe(0);
  });
});

/**
 * PostgreSQL ends the session holding the ingest lock in the middle of a pass: another process may
 * start a pass now, so this one stops between feeds, and the feeds it did not reach stay due.
 */
const postgres = testDatabases().find((database) => database.name === "postgres");
if (!postgres)
  console.warn("TEST_DATABASE_URL is not set: the lost-lock scheduler test was NOT run.");

describe.skipIf(!postgres)("scheduler when the ingest lock's connection is lost", () => {
  let server: FixtureServer;
  let handle: Awaited<ReturnType<NonNullable<typeof postgres>["open"]>>;
  const paths = ["/one.xml", "/two.xml", "/three.xml", "/four.xml"];

  beforeAll(async () => {
    if (!postgres) return;
    server = await startFixtureServer();
    handle = await postgres.open();
    await handle.migrate();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });

  it("stops the pass between feeds, says so, and leaves the rest due", async () => {
    for (const path of paths) {
      server.route(path, async (_req, res) => {
        // The first feed asked for ends the lock holder's session before it answers.
        await endLockHolder(handle.url ?? "", INGEST_LOCK_ID);
        await new Promise((resolve) => setTimeout(resolve, 300));
        res.writeHead(200).end(rssFeed("F", [{ guid: path, title: path }]));
      });
    }
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: "info" },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    );
    const summaries: IngestSummary[] = [];
    const scheduler = startScheduler({
      database: handle,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      sources: paths.map((path) => ({ url: server.url(path), category: "local-news" as const })),
      intervalMinutes: 60,
      // One feed at a time: the pass is in its first feed when the lock goes.
      concurrency: 1,
      onPass: (summary) => summaries.push(summary),
    });
    await expect.poll(() => summaries.length, { timeout: 15_000 }).toBe(1);
    await scheduler.stop();

    const [summary] = summaries;
    expect(paths.reduce((sum, path) => sum + server.hits(path), 0)).toBe(1);
    expect(summary).toMatchObject({ fetched: 0, failed: 0, notDue: 4 });
    expect(lines.some((line) => line.msg === LOCK_LOST_MESSAGE && line.level === 40)).toBe(true);
    // Nothing was marked failed: every feed is due for the next pass.
    const due = await handle.db.select().from(feeds);
    expect(due).toHaveLength(4);
    for (const feed of due) {
      expect(feed.consecutiveFailures).toBe(0);
      expect(feed.nextAttemptAt === null || feed.nextAttemptAt.getTime() <= Date.now()).toBe(true);
    }
  });
});
