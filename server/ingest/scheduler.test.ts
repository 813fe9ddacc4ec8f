import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../db/test-databases";
import { startScheduler, withJitter } from "./scheduler";
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
  });
});
