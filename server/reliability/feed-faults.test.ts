import iconv from "iconv-lite";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryKey } from "../../shared/categories";
import { feedHealth, type FeedHealth } from "../ingest/feed-health";
import { articles, feeds } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import type { FeedSource } from "../ingest/feeds-config";
import { runIngestPass, type IngestOptions } from "../ingest/ingest";
import { articlesFromBody } from "../ingest/read-feed";
import { DEAD_AFTER_FAILURES } from "../ingest/schedule";
import { newestItems, storeArticles } from "../ingest/store";
import {
  rssFeed,
  startFixtureServer,
  type FixtureServer,
  type Handler,
} from "../ingest/test-server";
import { ensureFeeds, type FeedRow } from "../news/repository";

/**
 * The feed-fault matrix: every way a publisher's feed can go wrong, each through a real ingest pass
 * against a local server, over a database already holding a good version of the feed and a second,
 * healthy feed. For each fault: (a) no stored article is lost or changed, (b) the feed's state says
 * what happened, in words an operator reads in `news feeds`, (c) the site keeps serving the articles.
 */

reportSkippedPostgres();

const logger = pino({ level: "silent" });
const SITE_URL = "http://127.0.0.1:3000";
/** Pass clocks: each fault gets its own hour, so its state is told apart from the last one's. */
const PASS_BASE = Date.UTC(2026, 5, 1, 12);
const HEALTHY_CATEGORY: CategoryKey = "business";
const FAULT_CATEGORY: CategoryKey = "politics";
/** Small limits, so that the timeout and size faults cost half a second, not the defaults' 15 s. */
const FAST_FETCH: IngestOptions["fetchOptions"] = { timeoutMs: 500, maxBytes: 256 * 1024 };

interface Item {
  guid: string;
  title: string;
  description?: string;
  date?: string;
  link?: string;
}

/** What the feed's row (and `news feeds`) should say after the faulty pass. */
interface ExpectedState {
  health: FeedHealth;
  lastStatus: number | null;
  lastError: string | RegExp | null;
  consecutiveFailures: number;
  dead: boolean;
}

interface Fault {
  name: string;
  /** Names the feed's address and stories. */
  key: string;
  /**
   * Where the good version of the feed lives: on the shared fixture server (default), on a server of
   * its own that is stopped before the faulty pass, or on a host that does not resolve (its good
   * version was stored when it still did).
   */
  home?: "fixture" | "stops" | "unresolvable";
  /** The good version's items; two plain ones by default. */
  items?: (key: string) => Item[];
  /** The faulty answer, given the good version's XML. */
  answer?: (good: string) => Handler;
  /** Faulty passes in a row (a long run of failures). */
  passes?: number;
  /** The first faulty pass after which the feed shows as dead; by default never, or the first if dead. */
  deadFrom?: number;
  expected: ExpectedState;
}

const plainItems = (key: string): Item[] => [
  { guid: `${key}-0`, title: `First ${key} story` },
  { guid: `${key}-1`, title: `Second ${key} story` },
];

const failing = (
  lastStatus: number | null,
  lastError: string | RegExp,
  extra: Partial<ExpectedState> = {},
): ExpectedState => ({
  health: "FAILING",
  lastStatus,
  lastError,
  consecutiveFailures: 1,
  dead: false,
  ...extra,
});

const healthy = (lastError: string | RegExp | null = null): ExpectedState => ({
  // Read without failing; what it still says is wrong makes it a warning.
  health: lastError === null ? "ok" : "WARNING",
  lastStatus: 200,
  lastError,
  consecutiveFailures: 0,
  dead: false,
});

const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    res.writeHead(code, headers).end();

/** The good version's XML, re-encoded: the declaration (and charset) say `declared`, the bytes are `actual`. */
const encoded =
  (actual: string, declared: string): ((good: string) => Handler) =>
  (good) =>
  (_req, res) =>
    res
      .writeHead(200, { "content-type": `application/rss+xml; charset=${declared}` })
      .end(iconv.encode(good.replace('encoding="UTF-8"', `encoding="${declared}"`), actual));

const FAULTS: Fault[] = [
  {
    name: "connection refused",
    key: "refused",
    home: "stops",
    expected: failing(null, "Connection refused"),
  },
  {
    name: "DNS failure",
    key: "dns",
    home: "unresolvable",
    expected: failing(null, /^DNS lookup failed \((ENOTFOUND|EAI_AGAIN)\)$/),
  },
  {
    name: "timeout: the server never answers",
    key: "timeout",
    answer: () => () => undefined,
    expected: failing(null, "Timed out after 0.5 s"),
  },
  {
    name: "slow drip body",
    key: "drip",
    answer: () => (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
      const timer = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(timer));
    },
    expected: failing(null, "Timed out after 0.5 s"),
  },
  {
    name: "5xx",
    key: "5xx",
    answer: () => status(503, { "retry-after": "120" }),
    expected: failing(503, "HTTP 503 Service Unavailable"),
  },
  {
    name: "404",
    key: "404",
    answer: () => status(404),
    expected: failing(404, "HTTP 404 Not Found"),
  },
  {
    name: "410 Gone marks the feed dead",
    key: "410",
    answer: () => status(410),
    expected: failing(410, "HTTP 410 Gone", { health: "DEAD", dead: true }),
  },
  {
    name: `a long run of failures (${DEAD_AFTER_FAILURES} in a row) marks the feed dead`,
    key: "long-run",
    answer: () => status(500),
    passes: DEAD_AFTER_FAILURES,
    deadFrom: DEAD_AFTER_FAILURES,
    expected: failing(500, "HTTP 500 Internal Server Error", {
      health: "DEAD",
      consecutiveFailures: DEAD_AFTER_FAILURES,
      dead: true,
    }),
  },
  {
    name: "redirect loop",
    key: "redirect-loop",
    answer: () => (req, res) => {
      const [path = "/", query] = (req.url ?? "/").split("?");
      res.writeHead(302, { location: query ? path : `${path}?again` }).end();
    },
    expected: failing(302, /^Redirect loop at http:\/\/127\.0\.0\.1:\d+\/redirect-loop\.xml$/),
  },
  {
    name: "huge body",
    key: "huge",
    answer: () => (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
      const chunk = `<item><title>${"x".repeat(16 * 1024)}</title></item>`;
      let sent = 0;
      const push = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once("drain", push);
        else res.end("</channel></rss>");
      };
      push();
    },
    expected: failing(200, `Body larger than ${256 * 1024} bytes`),
  },
  {
    name: "truncated XML",
    key: "truncated",
    items: (key) => [
      ...plainItems(key),
      { guid: `${key}-2`, title: `Third ${key} story`, description: "The last item, cut off" },
    ],
    // Cut right after the last item's link: that item has a title and a link but nothing else.
    answer: (good) => (_req, res) =>
      res
        .writeHead(200, { "content-type": "application/rss+xml" })
        .end(good.slice(0, good.lastIndexOf("</link>") + "</link>".length)),
    expected: healthy("The feed is cut off or damaged: read 2 complete items before the damage"),
  },
  {
    name: "windows-1252 bytes declared as UTF-8",
    key: "cp1252",
    items: (key) => [
      { guid: `${key}-0`, title: `Café – ${key} opens`, description: "Crème brûlée at “the pier”" },
      { guid: `${key}-1`, title: `Señor ${key}’s menu` },
    ],
    answer: (good) => (_req, res) =>
      res
        .writeHead(200, { "content-type": "application/rss+xml; charset=utf-8" })
        .end(iconv.encode(good, "windows-1252")),
    expected: healthy(),
  },
  {
    name: "ISO-8859-1 declared properly",
    key: "latin1",
    items: (key) => [
      { guid: `${key}-0`, title: `Niño ${key} at the Façade`, description: "Jalapeño, £5, ½ off" },
      { guid: `${key}-1`, title: `Über ${key} über alles` },
    ],
    answer: encoded("latin1", "ISO-8859-1"),
    expected: healthy(),
  },
  {
    name: "UTF-8 bytes declared as ISO-8859-1",
    key: "utf8-as-latin1",
    items: (key) => [
      { guid: `${key}-0`, title: `Año nuevo ${key} – “quoted”` },
      { guid: `${key}-1`, title: `Zürich ${key} notes` },
    ],
    answer: encoded("utf8", "ISO-8859-1"),
    expected: healthy(),
  },
  {
    name: "an HTML page instead of a feed",
    key: "html",
    answer: () => (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          "<!doctype html><html><head><title>We moved</title></head><body><p>Hello</p></body></html>",
        ),
    expected: failing(200, "Not a feed: the document is HTML"),
  },
  {
    name: "a feed that suddenly holds zero items",
    key: "empty",
    answer: () => (_req, res) =>
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed("Empty now", [])),
    expected: healthy("The feed holds no items"),
  },
];

/** As React writes text into HTML. */
const inHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

describe.each(testDatabases())("feed faults on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  const healthySource: FeedSource = { url: "", category: HEALTHY_CATEGORY };
  const healthyItems: Item[] = [
    { guid: "healthy-0", title: "Harbor budget passes", date: "Mon, 01 Dec 2025 10:00:00 GMT" },
    { guid: "healthy-1", title: "Port traffic grows", date: "Mon, 01 Dec 2025 11:00:00 GMT" },
  ];

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    server = await startFixtureServer();
    healthySource.url = server.url("/healthy.xml");
    server.route("/healthy.xml", (req, res) => {
      if (req.headers["if-none-match"] === '"healthy-v1"') {
        res.writeHead(304).end();
        return;
      }
      res
        .writeHead(200, { "content-type": "application/rss+xml", etag: '"healthy-v1"' })
        .end(rssFeed("Healthy", healthyItems));
    });
    app = await startTestApp(handle, { SITE_URL, PAGE_CACHE_MB: "0" });
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
    await handle?.dispose();
  });

  const pass = (
    sources: FeedSource[],
    now: Date,
    fetchOptions: IngestOptions["fetchOptions"] = {},
  ) =>
    runIngestPass(sources, {
      database: handle,
      logger,
      siteUrl: SITE_URL,
      siteName: "Test Ledger",
      force: true,
      now: () => now,
      fetchOptions,
    });
  const feedRow = async (url: string): Promise<FeedRow> => {
    const [row] = await handle.db.select().from(feeds).where(eq(feeds.url, url));
    if (!row) throw new Error(`no feed ${url}`);
    return row;
  };
  const allArticles = () => handle.db.select().from(articles).orderBy(articles.id);
  const page = async (path: string) => {
    const response = await fetch(`${app.base}${path}`);
    return { status: response.status, html: await response.text() };
  };

  /** The good version of a feed whose host no longer resolves, stored as a pass stored it back then. */
  async function storeAsEarlierPass(source: FeedSource, xml: string, now: Date) {
    const [registered] = await ensureFeeds(handle.db, [source]);
    if (!registered) throw new Error("feed not registered");
    const { items } = articlesFromBody(
      {
        kind: "ok",
        status: 200,
        body: new TextEncoder().encode(xml),
        contentType: "application/rss+xml",
        etag: null,
        lastModified: null,
        maxAgeSeconds: null,
        finalUrl: source.url,
      },
      source,
      SITE_URL,
    );
    await handle.db.transaction((tx) =>
      storeArticles(tx, registered.feed.id, newestItems(items, now), now),
    );
    // As the pass would: the pages' cached reads are emptied.
    await handle.announceChange();
  }

  it.each(FAULTS.map((fault, index) => [fault.name, fault, index] as const))(
    "%s",
    async (_name, fault, index) => {
      const { key } = fault;
      const items = (fault.items ?? plainItems)(key).map((item, i) => ({
        // Each fault's items are the newest so far: they lead the home page's headlines.
        date: new Date(Date.UTC(2026, 0, 1 + index, 10 + i)).toUTCString(),
        ...item,
      }));
      const good = rssFeed(`The ${fault.name} feed`, items);
      const path = `/${key}.xml`;
      const goodAnswer: Handler = (_req, res) =>
        res.writeHead(200, { "content-type": "application/rss+xml" }).end(good);
      const faultAnswer = fault.answer?.(good);
      let broken = false;
      const goodAt = new Date(PASS_BASE + index * 3_600_000);

      // A good version of the feed, and the healthy feed, stored by a clean pass.
      let source: FeedSource;
      let ownServer: FixtureServer | undefined;
      if (fault.home === "unresolvable") {
        source = { url: `http://${key}.invalid${path}`, category: FAULT_CATEGORY };
        await storeAsEarlierPass(source, good, goodAt);
        await pass([healthySource], goodAt);
      } else {
        const host = fault.home === "stops" ? await startFixtureServer() : server;
        ownServer = fault.home === "stops" ? host : undefined;
        source = { url: host.url(path), category: FAULT_CATEGORY };
        host.route(path, (req, res) =>
          broken && faultAnswer ? faultAnswer(req, res) : goodAnswer(req, res),
        );
        const clean = await pass([source, healthySource], goodAt);
        expect(clean.failed).toBe(0);
      }
      const before = await allArticles();
      const feedId = (await feedRow(source.url)).id;
      const stored = before.filter((a) => a.feedId === feedId);
      expect(stored).toHaveLength(items.length);

      // The faulty pass (or run of passes), with the healthy feed alongside.
      broken = true;
      await ownServer?.close();
      const history: FeedRow[] = [];
      for (let n = 1; n <= (fault.passes ?? 1); n++) {
        const summary = await pass(
          [source, healthySource],
          new Date(goodAt.getTime() + n * 60_000),
          FAST_FETCH,
        );
        expect(summary.feeds.find((f) => f.url === healthySource.url)?.error).toBeNull();
        history.push(await feedRow(source.url));
      }

      // (a) Nothing stored is lost or changed, this feed's articles or any other's.
      expect(await allArticles()).toEqual(before);

      // (b) The feed's state says what happened, as `news feeds` shows it.
      const row = await feedRow(source.url);
      const { health, lastError, ...fields } = fault.expected;
      expect({ health: feedHealth(row, true), ...row }).toMatchObject({ health, ...fields });
      if (lastError instanceof RegExp) expect(row.lastError).toMatch(lastError);
      else expect(row.lastError).toBe(lastError);
      const deadFrom = fault.deadFrom ?? (fault.expected.dead ? 1 : Infinity);
      expect(history.map((r) => r.dead)).toEqual(history.map((_, i) => i + 1 >= deadFrom));
      expect(feedHealth(await feedRow(healthySource.url), true)).toBe("ok");

      // (c) The site keeps serving what is stored: this feed's stories on the home page and its
      // category's page, the healthy feed's on its own category's.
      const expected: [string, { title: string }[]][] = [
        ["/", stored],
        [`/${FAULT_CATEGORY}`, stored],
        [`/${HEALTHY_CATEGORY}`, healthyItems],
      ];
      const pages = await Promise.all(expected.map(([path]) => page(path)));
      expected.forEach(([path, shown], i) => {
        expect(pages[i]?.status, path).toBe(200);
        for (const { title } of shown) expect(pages[i]?.html, path).toContain(inHtml(title));
      });
    },
  );
});
