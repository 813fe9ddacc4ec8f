import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEARCH_KEY } from "../../shared/cache-keys";
import { rowsOf } from "../db/client";
import { articles, feeds } from "../db/schema";
import { refreshSearchWindows } from "../news/search-window";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import type { FeedSource } from "./feeds-config";
import { describeOutcome, INGEST_LOCK_ID, runIngestPass, type IngestOptions } from "./ingest";
import { articlesFromBody } from "./read-feed";
import { rssFeed, startFixtureServer, type FixtureServer } from "./test-server";

reportSkippedPostgres();

const logger = pino({ level: "silent" });
const T0 = new Date("2026-11-22T12:00:00Z");
const minutesAfter = (date: Date, m: number) => new Date(date.getTime() + m * 60_000);

function items(prefix: string, count: number, startDay = 1) {
  return Array.from({ length: count }, (_, i) => ({
    guid: `${prefix}-${i}`,
    title: `${prefix} story ${i}`,
    date: new Date(Date.UTC(2026, 9, startDay + i, 10)).toUTCString(),
  }));
}

describe.each(testDatabases())("ingest pass on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  const bodies = new Map<string, { status: number; body: string; type?: string }>();

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    server = await startFixtureServer();
    for (const name of ["a", "b", "c", "html", "empty", "big"]) {
      server.route(`/${name}.xml`, (req, res) => {
        const answer = bodies.get(name) ?? { status: 404, body: "" };
        if (answer.status === 200 && req.headers["if-none-match"] === `"${name}-etag"`) {
          res.writeHead(304).end();
          return;
        }
        res
          .writeHead(answer.status, {
            "content-type": answer.type ?? "application/rss+xml",
            ...(answer.status === 200 ? { etag: `"${name}-etag"` } : {}),
          })
          .end(answer.body);
      });
    }
  });
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    await handle.db.delete(articles);
    await handle.db.delete(feeds);
    bodies.clear();
  });

  const source = (name: string, category: FeedSource["category"] = "local-news"): FeedSource => ({
    url: server.url(`/${name}.xml`),
    category,
  });
  const pass = (sources: FeedSource[], extra: Partial<IngestOptions> = {}) =>
    runIngestPass(sources, {
      database: handle,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      now: () => T0,
      ...extra,
    });
  const storedIds = async () =>
    (await handle.db.select({ id: articles.id }).from(articles).orderBy(articles.id)).map(
      (r) => r.id,
    );
  const feedRow = async (name: string) =>
    (
      await handle.db
        .select()
        .from(feeds)
        .where(eq(feeds.url, server.url(`/${name}.xml`)))
    )[0];

  it("stores each feed's items under stable ids, the same on a second run, with no duplicates", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 3)) });
    bodies.set("b", { status: 200, body: rssFeed("B", items("b", 2)) });
    const first = await pass([source("a"), source("b", "politics")]);
    expect(first).toMatchObject({ fetched: 2, failed: 0, inserted: 5, updated: 0 });
    const ids = await storedIds();
    expect(ids).toHaveLength(5);
    expect(ids.every((id) => /^[a-z0-9-]+$/.test(id))).toBe(true);

    // Force a full fetch again (no 304) by forgetting the validators.
    await handle.db.update(feeds).set({ etag: null });
    const second = await pass([source("a"), source("b", "politics")], {
      now: () => minutesAfter(T0, 60),
    });
    expect(second).toMatchObject({ fetched: 2, inserted: 0, updated: 0 });
    expect(await storedIds()).toEqual(ids);
    const politics = await handle.db
      .select()
      .from(articles)
      .where(eq(articles.category, "politics"));
    expect(politics).toHaveLength(2);
  });

  it("updates an edited item in place, keeping its id and first-seen time", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 2)) });
    await pass([source("a")]);
    const before = await handle.db.select().from(articles).orderBy(articles.id);
    const edited = items("a", 2).map((i, n) =>
      n === 0 ? { ...i, title: "Corrected headline" } : i,
    );
    bodies.set("a", { status: 200, body: rssFeed("A", edited) });
    await handle.db.update(feeds).set({ etag: null });
    const summary = await pass([source("a")], { now: () => minutesAfter(T0, 30) });
    expect(summary).toMatchObject({ inserted: 0, updated: 1 });
    const after = await handle.db.select().from(articles).orderBy(articles.id);
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    const changed = after.find((a) => a.title === "Corrected headline");
    const original = before.find((a) => a.id === changed?.id);
    expect(changed?.firstSeenAt.getTime()).toBe(original?.firstSeenAt.getTime());
    expect(changed?.updatedAt.getTime()).toBe(minutesAfter(T0, 30).getTime());
  });

  it("keeps the id of an item whose headline and link both change (same guid)", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", [{ guid: "g1", title: "First headline" }]) });
    await pass([source("a")]);
    const [before] = await storedIds();
    bodies.set("a", {
      status: 200,
      body: rssFeed("A", [
        { guid: "g1", title: "Rewritten headline", link: "https://sample.example.org/moved" },
      ]),
    });
    await handle.db.update(feeds).set({ etag: null });
    const summary = await pass([source("a")], { now: () => minutesAfter(T0, 30) });
    expect(summary).toMatchObject({ inserted: 0, updated: 1 });
    const rows = await handle.db.select().from(articles);
    expect(rows.map((r) => [r.id, r.title, r.link])).toEqual([
      [before, "Rewritten headline", "https://sample.example.org/moved"],
    ]);
  });

  it("answers a 304 without parsing and changes nothing", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 2)) });
    bodies.set("b", { status: 200, body: rssFeed("B", items("b", 1)) });
    await pass([source("a"), source("b")]);
    bodies.set("a", { status: 200, body: "<<< would not parse >>>" });
    bodies.set("b", { status: 200, body: "<<< would not parse >>>" });
    const later = minutesAfter(T0, 20);
    const summary = await pass([source("a"), source("b")], { now: () => later });
    expect(summary).toMatchObject({ notModified: 2, failed: 0, inserted: 0, updated: 0 });
    expect(await storedIds()).toHaveLength(3);
    for (const name of ["a", "b"]) {
      expect(await feedRow(name)).toMatchObject({
        lastStatus: 304,
        consecutiveFailures: 0,
        lastAttemptAt: later,
        lastSuccessAt: later,
        // No ttl or max-age: due again at the next scheduled pass.
        nextAttemptAt: later,
      });
    }
  });

  it("keeps a failing feed's earlier articles and every other feed's, and backs off", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 2)) });
    bodies.set("b", { status: 200, body: rssFeed("B", items("b", 2)) });
    await pass([source("a"), source("b")]);
    const stored = await storedIds();

    bodies.set("a", { status: 500, body: "boom" });
    bodies.set("b", { status: 200, body: rssFeed("B", items("b", 3)) });
    await handle.db.update(feeds).set({ etag: null });
    const t1 = minutesAfter(T0, 60);
    const summary = await pass([source("a"), source("b")], { now: () => t1 });
    expect(summary).toMatchObject({ fetched: 1, failed: 1, inserted: 1 });
    const after = await storedIds();
    expect(after).toEqual(expect.arrayContaining(stored));
    expect(after).toHaveLength(5);
    expect(await feedRow("a")).toMatchObject({
      lastStatus: 500,
      lastError: "HTTP 500 Internal Server Error",
      consecutiveFailures: 1,
      nextAttemptAt: minutesAfter(t1, 15),
      dead: false,
    });

    // Not due yet ten minutes later; due (and failing again, doubling) after fifteen.
    const early = await pass([source("a")], { now: () => minutesAfter(t1, 10) });
    expect(early).toMatchObject({ notDue: 1, failed: 0 });
    await pass([source("a")], { now: () => minutesAfter(t1, 16) });
    expect(await feedRow("a")).toMatchObject({
      consecutiveFailures: 2,
      nextAttemptAt: minutesAfter(t1, 16 + 30),
    });
    expect(await storedIds()).toHaveLength(5);
  });

  it("leaves a feed whose fetch a stopping process cut short due, not failed", async () => {
    const stopping = new AbortController();
    // The process is told to stop while the feed's answer is still on its way.
    server.route("/slow.xml", (_req, res) => {
      stopping.abort();
      setTimeout(() => res.writeHead(200).end(rssFeed("Slow", items("slow", 2))), 200);
    });
    const slow = { url: server.url("/slow.xml"), category: "local-news" } as const;
    const summary = await pass([slow], { signal: stopping.signal });
    expect(summary).toMatchObject({ fetched: 0, failed: 0, notDue: 1 });
    expect(await handle.db.select().from(feeds).where(eq(feeds.url, slow.url))).toMatchObject([
      { consecutiveFailures: 0, lastError: null, nextAttemptAt: null },
    ]);

    // The next pass, in this process or another, reads it at once.
    const next = await pass([slow], { now: () => minutesAfter(T0, 1) });
    expect(next).toMatchObject({ fetched: 1, inserted: 2 });
  });

  it("marks a feed answering 410 as dead, and still retries it", async () => {
    bodies.set("a", { status: 410, body: "" });
    await pass([source("a")]);
    expect(await feedRow("a")).toMatchObject({
      dead: true,
      lastStatus: 410,
      nextAttemptAt: minutesAfter(T0, 15),
    });
  });

  it("records an HTML page instead of a feed as a failure", async () => {
    bodies.set("html", {
      status: 200,
      type: "text/html",
      body: "<!doctype html><html><head><title>Home</title></head><body><p>Hi</p></body></html>",
    });
    const summary = await pass([source("html")]);
    expect(summary.failed).toBe(1);
    expect((await feedRow("html"))?.lastError).toMatch(/^Not a feed/);
  });

  it("tells apart, in the log and the feed's state, what reading each feed came to", async () => {
    const lines: { level: number; msg: string; feed?: string; outcome?: string }[] = [];
    const capturing = pino(
      { level: "info" },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    );
    bodies.set("a", { status: 500, body: "" });
    bodies.set("html", { status: 200, type: "text/html", body: "<!doctype html><p>Hi</p>" });
    bodies.set("empty", { status: 200, body: rssFeed("None", []) });
    bodies.set("b", { status: 200, body: rssFeed("Some", items("b", 3)) });
    const summary = await pass([source("a"), source("html"), source("empty"), source("b")], {
      logger: capturing,
    });
    const said = (name: string) =>
      lines
        .filter((l) => l.feed === server.url(`/${name}.xml`))
        .map((l) => [l.level, l.msg, l.outcome]);
    expect(said("a")).toEqual([[40, "feed fetch failed", "fetch-failed"]]);
    expect(said("html")).toEqual([
      [40, "feed answered with something that is not a feed", "not-a-feed"],
    ]);
    expect(said("empty")).toEqual([[40, "feed parsed with no items", "no-items"]]);
    expect(said("b")).toEqual([[30, "feed stored", "stored"]]);
    const outcomes = Object.fromEntries(
      summary.feeds.map((f) => [f.url.replace(/.*\//, ""), f.outcome]),
    );
    expect(outcomes).toEqual({
      "a.xml": "fetch-failed",
      "html.xml": "not-a-feed",
      "empty.xml": "no-items",
      "b.xml": "stored",
    });
    expect(summary).toMatchObject({ fetched: 2, failed: 2 });
    expect(await feedRow("html")).toMatchObject({ lastOutcome: "not-a-feed" });
    expect(await feedRow("empty")).toMatchObject({ lastOutcome: "no-items", lastItemCount: 0 });
    expect(await feedRow("b")).toMatchObject({ lastOutcome: "stored", lastItemCount: 3 });
  });

  it.each([
    ["stored", 15, "stored 15"],
    ["no-items", 0, "no items"],
    ["not-a-feed", null, "not a feed"],
    ["fetch-failed", null, "fetch failed"],
    ["store-failed", null, "store failed"],
    ["not-modified", null, "not modified"],
  ] as const)("describes %s as the operator reads it", (outcome, items, words) => {
    expect(describeOutcome(outcome, items)).toBe(words);
  });

  it("keeps stored articles when a feed suddenly holds no items", async () => {
    bodies.set("empty", { status: 200, body: rssFeed("E", items("e", 2)) });
    await pass([source("empty")]);
    bodies.set("empty", { status: 200, body: rssFeed("E", []) });
    await handle.db.update(feeds).set({ etag: null });
    const summary = await pass([source("empty")], { now: () => minutesAfter(T0, 30) });
    expect(summary).toMatchObject({ fetched: 1, failed: 0 });
    expect(await storedIds()).toHaveLength(2);
    expect(await feedRow("empty")).toMatchObject({
      lastError: "The feed holds no items",
      consecutiveFailures: 0,
    });
  });

  it("stores at most the 15 newest items of a feed", async () => {
    bodies.set("big", { status: 200, body: rssFeed("Big", items("big", 20)) });
    await pass([source("big")]);
    const rows = await handle.db.select({ title: articles.title }).from(articles);
    expect(rows).toHaveLength(15);
    expect(rows.map((r) => r.title)).not.toContain("big story 4");
    expect(rows.map((r) => r.title)).toContain("big story 19");
  });

  it("stores a link that arrives from two feeds once", async () => {
    const shared = { guid: "x", title: "Shared story", link: "https://sample.example.org/shared" };
    bodies.set("a", { status: 200, body: rssFeed("A", [shared]) });
    bodies.set("b", { status: 200, body: rssFeed("B", [{ ...shared, guid: "y" }]) });
    await pass([source("a")]);
    const summary = await pass([source("b")]);
    expect(summary.inserted).toBe(0);
    const rows = await handle.db.select().from(articles).where(eq(articles.link, shared.link));
    expect(rows).toHaveLength(1);
  });

  it("tells apart two items of one feed that share a guid, by link", async () => {
    const body = rssFeed("A", [
      { guid: "same", title: "First", link: "https://sample.example.org/1" },
      { guid: "same", title: "Second", link: "https://sample.example.org/2" },
    ]);
    bodies.set("a", { status: 200, body });
    await pass([source("a")]);
    expect(await storedIds()).toHaveLength(2);
    await handle.db.update(feeds).set({ etag: null });
    await pass([source("a")], { now: () => minutesAfter(T0, 30) });
    expect(await storedIds()).toHaveLength(2);
  });

  it("builds search's window of the newest stories once the site holds enough, and purges search", async () => {
    const windows = async () =>
      rowsOf<{ stories: number; cuts: boolean; indexed: boolean }>(
        await handle.db.execute(sql`
          SELECT w.stories, w.cuts,
                 EXISTS (SELECT 1 FROM pg_indexes
                          WHERE indexname = 'articles_search_window_' || w.stories) AS indexed
            FROM search_windows w ORDER BY w.stories`),
      );
    const announced: string[][] = [];
    const watched = {
      ...handle,
      async announceChange(keys: readonly string[] = []) {
        announced.push([...keys]);
        await handle.announceChange(keys);
      },
    };
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 3)) });
    await pass([source("a")], { database: watched });
    expect(await windows()).toEqual([]);

    // Years of archive, as bench:growth fills a site: each story copied 2,100 times back in time,
    // 6,303 in all, past the smallest window's 5,000 and a quarter.
    await handle.db.execute(sql`
      INSERT INTO articles (id, feed_id, category, guid, link, title, excerpt, content, author,
                            published_at, first_seen_at, updated_at)
      SELECT a.id || '-y' || k, a.feed_id, a.category, a.guid || '-y' || k, a.link || '#y' || k,
             a.title, a.excerpt, a.content, a.author, a.published_at - make_interval(hours => k),
             a.first_seen_at - make_interval(hours => k), a.updated_at - make_interval(hours => k)
        FROM articles a, generate_series(1, 2100) AS k`);
    announced.length = 0;
    // The feed answers 304: the pass stores nothing, and moving the window is its one change.
    const moved = await pass([source("a")], { database: watched, now: () => minutesAfter(T0, 60) });
    expect(moved).toMatchObject({ notModified: 1, inserted: 0, updated: 0 });
    expect(await windows()).toEqual([{ stories: 5_000, cuts: false, indexed: true }]);
    expect(announced).toEqual([[SEARCH_KEY]]);

    announced.length = 0;
    await pass([source("a")], { database: watched, now: () => minutesAfter(T0, 120) });
    expect(await windows()).toEqual([{ stories: 5_000, cuts: false, indexed: true }]);
    expect(announced).toEqual([]);

    // The window goes with the stories, so the tests after this one meet none.
    await handle.db.delete(articles);
    await refreshSearchWindows(handle.db);
    expect(await windows()).toEqual([]);
  });

  it("runs one pass at a time on a database", async () => {
    bodies.set("a", { status: 200, body: rssFeed("A", items("a", 1)) });
    let release: () => void = () => {};
    let held: () => void = () => {};
    const lockTaken = new Promise<void>((r) => (held = r));
    const holding = handle.withLock(INGEST_LOCK_ID, { wait: false }, () => {
      held();
      return new Promise<void>((r) => (release = r));
    });
    // On PostgreSQL taking the lock is a round trip: the second try comes once the first holds it.
    await lockTaken;
    const second = await handle.withLock(INGEST_LOCK_ID, { wait: false }, () =>
      pass([source("a")]),
    );
    expect(second.acquired).toBe(false);
    release();
    await holding;
    const third = await handle.withLock(INGEST_LOCK_ID, { wait: false }, () => pass([source("a")]));
    expect(third.acquired).toBe(true);
    const [count] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(articles);
    expect(count?.n).toBe(1);
  });
});

describe("ingest concurrency", () => {
  it("fetches concurrently within the global and per-host limits", async () => {
    const servers = await Promise.all([
      startFixtureServer(),
      startFixtureServer(),
      startFixtureServer(),
    ]);
    let active = 0;
    let peak = 0;
    for (const s of servers) {
      for (let i = 0; i < 4; i++) {
        s.route(`/f${i}.xml`, async (_req, res) => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 150));
          active--;
          res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed(`F${i}`, []));
        });
      }
    }
    const handle = await testDatabases()[0]?.open();
    if (!handle) throw new Error("no test database");
    try {
      await handle.migrate();
      const sources = servers.flatMap((s) =>
        [0, 1, 2, 3].map((i): FeedSource => ({ url: s.url(`/f${i}.xml`), category: "world-news" })),
      );
      const summary = await runIngestPass(sources, {
        database: handle,
        logger,
        siteUrl: "http://127.0.0.1:3000",
        siteName: "Test Ledger",
        limits: { global: 5, perHost: 2 },
      });
      expect(summary.fetched).toBe(12);
      expect(peak).toBe(5);
      for (const s of servers) expect(s.maxConcurrent()).toBeLessThanOrEqual(2);
      expect(Math.max(...servers.map((s) => s.maxConcurrent()))).toBe(2);
    } finally {
      await handle.dispose();
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

describe("articlesFromBody: the base of relative links", () => {
  const SITE = "https://site.example";
  const rss = (rootAttrs: string) =>
    `<rss version="2.0"${rootAttrs}><channel><link>https://publisher.example/</link>` +
    `<item><title>t</title><link>story/1</link><enclosure url="img/1.jpg" type="image/jpeg"/></item>` +
    `</channel></rss>`;
  const atom = (rootAttrs: string) =>
    `<feed xmlns="http://www.w3.org/2005/Atom"${rootAttrs}><entry><id>1</id><title>t</title>` +
    `<link href="story/1"/><link rel="enclosure" type="image/jpeg" href="img/1.jpg"/></entry></feed>`;
  const BASE = ` xml:base="https://base.example/news/"`;

  it.each([
    ["a file feed's xml:base", "./feed.xml", rss(BASE), "https://base.example/news/"],
    [
      "a file: URL feed's xml:base",
      "file:///srv/feed.xml",
      atom(BASE),
      "https://base.example/news/",
    ],
    ["a file feed without xml:base: our own address", "./feed.xml", rss(""), `${SITE}/`],
    [
      "a file feed's non-http xml:base: our own address",
      "./feed.xml",
      rss(` xml:base="file:///etc/"`),
      `${SITE}/`,
    ],
    [
      "a fetched feed's xml:base",
      "https://feed.example/rss",
      rss(BASE),
      "https://base.example/news/",
    ],
    [
      "a fetched feed without xml:base: its channel link",
      "https://feed.example/rss",
      rss(""),
      "https://publisher.example/",
    ],
    [
      "a fetched Atom feed without xml:base: its address",
      "https://feed.example/atom",
      atom(""),
      "https://feed.example/",
    ],
  ])("%s", (_name, url, xml, base) => {
    const { items } = articlesFromBody(
      {
        kind: "ok",
        status: 200,
        body: new TextEncoder().encode(xml),
        contentType: null,
        etag: null,
        lastModified: null,
        maxAgeSeconds: null,
        finalUrl: url,
      },
      { url, category: "local-news" },
      SITE,
    );
    expect(items.map((a) => [a.link, a.image])).toEqual([[`${base}story/1`, `${base}img/1.jpg`]]);
  });
});
