import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../db/client";
import { articles } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { runIngestPass } from "../ingest/ingest";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { upsertArticle } from "../news/repository";
import { readiness } from "./health";
import { chooseEncoding } from "./cached-pages";
import { PAGE_CACHE_CONTROL } from "./page-handler";
import { MALFORMED_PATH_MESSAGE } from "./security";
import { startTestApp } from "./test-app";
import { inlineScriptCount, refusedInlineScripts } from "./test-policy";

/**
 * How pages are delivered: the response cache (hits, coalescing, invalidation by ingest), ETags,
 * compression, Cache-Control for each kind of answer, and the health and metrics endpoints. Renders
 * are counted through the metrics, never timed.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let feeds: FixtureServer;
/** One date for the fixture feed's item, so reading it again changes nothing. */
const FRESH_DATE = new Date().toUTCString();
const METRICS_TOKEN = "a-test-token-that-is-long-enough-0123";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  for (let i = 0; i < 6; i++) {
    await upsertArticle(handle.db, {
      id: `story-${i}`,
      category: "local-news",
      link: `https://sample.example.org/story-${i}`,
      title: `Harbor story ${i}`,
      excerpt: `About the harbor, part ${i}.`,
      content: "<p>Body</p>",
      author: "Staff Writer",
      publishedAt: new Date(Date.UTC(2026, 10, 1 + i)),
    });
  }
  feeds = await startFixtureServer();
  app = await startTestApp(handle, { METRICS_TOKEN });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await feeds?.close();
  await handle?.dispose();
});

beforeEach(() => app.pageCache?.clear());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add Accept-Encoding and decode). */
function raw(route: string, headers: Record<string, string> = {}, method = "GET", base = app.base) {
  return new Promise<RawAnswer>((resolve, reject) => {
    // A connection of its own: the global agent's idle ones can be closed by the server's
    // keep-alive timeout just as a request goes out on them (ECONNRESET).
    const options = { method, headers, agent: false };
    const request = http.request(`${base}${route}`, options, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (c: Buffer) => chunks.push(c));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

async function renders(of = app): Promise<number> {
  const metric = await of.metrics.registry.getSingleMetric("page_renders_total")?.get();
  return metric?.values[0]?.value ?? 0;
}

describe("response cache", () => {
  it("renders a page once, then answers from memory with the same bytes", async () => {
    const before = await renders();
    const first = await raw("/local-news");
    const second = await raw("/local-news");
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.body.equals(first.body)).toBe(true);
    expect((await renders()) - before).toBe(1);
    expect(first.headers["cache-control"]).toBe(PAGE_CACHE_CONTROL);
  });

  it("has browsers ask again for every page, answered 304 while it is unchanged; a CDN keeps it a minute", async () => {
    const page = await raw("/local-news");
    // No browser reuses a page without asking: an editor sees a take-down at once.
    expect(page.headers["cache-control"]).toBe("public, no-cache");
    expect(page.headers["cdn-cache-control"]).toBe(
      "public, max-age=60, stale-while-revalidate=600",
    );
    const etag = page.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await raw("/local-news", { "If-None-Match": String(etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("pages say they are UTF-8, rendered or from the cache", async () => {
    for (const outcome of ["MISS", "HIT"]) {
      const answer = await raw("/local-news");
      expect(answer.headers["x-cache"]).toBe(outcome);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    }
  });

  it("a hit carries the page's own Content-Security-Policy, once", async () => {
    const miss = await raw("/business");
    const hit = await raw("/business");
    expect(hit.headers["x-cache"]).toBe("HIT");
    const policy = hit.headers["content-security-policy"] ?? "";
    expect(policy).toBe(miss.headers["content-security-policy"]);
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
    expect(policy).not.toContain("'nonce-");
    expect(policy).not.toContain("default-src 'none'");
    expect(hit.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("every inline script runs under the policy sent with it: a render's by nonce, a kept page's by hash", async () => {
    const allowed = async (answer: RawAnswer, by: "nonce" | "hash") => {
      const policy = String(answer.headers["content-security-policy"]);
      const html = answer.body.toString("utf8");
      expect(policy).toContain(by === "nonce" ? "'nonce-" : "'sha256-");
      expect(policy).not.toContain(by === "nonce" ? "'sha256-" : "'nonce-");
      expect(await inlineScriptCount(html)).toBeGreaterThan(0);
      expect(await refusedInlineScripts(html, policy)).toEqual([]);
      return policy;
    };
    for (const route of ["/", "/local-news", "/article/story-1", "/archives", "/search?q=harbor"]) {
      const miss = await raw(route);
      const hit = await raw(route);
      expect([miss.headers["x-cache"], hit.headers["x-cache"]], route).toEqual(["MISS", "HIT"]);
      await allowed(miss, "hash");
      await allowed(hit, "hash");
    }
    // Answers rendered for one reader, never kept: a page of their own (cookies), a not-found page.
    for (const [route, headers] of [
      ["/community", { cookie: "poll_voter=6f1c1a8e-2f3b-4c5d-8e9f-0a1b2c3d4e5f" }],
      ["/no-such-page", {}],
    ] as const) {
      const [first, second] = [await raw(route, headers), await raw(route, headers)];
      expect(first.headers["x-cache"], route).toBe("BYPASS");
      // A new nonce for each render: none is ever presented to two readers.
      expect(await allowed(first, "nonce")).not.toBe(await allowed(second, "nonce"));
    }
  });

  it("compresses a page readers came back to at brotli's best level when it is rendered again", async () => {
    const br = { "accept-encoding": "br" };
    const atQuality = (body: Buffer, quality: number) =>
      zlib.brotliCompressSync(zlib.brotliDecompressSync(body), {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality },
      });
    const first = await raw("/technology", br);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(first.body.equals(atQuality(first.body, 9))).toBe(true);
    expect((await raw("/technology", br)).headers["x-cache"]).toBe("HIT");
    // Emptied, as an ingest pass or the page's expiry does: its next reader has it rendered again.
    app.pageCache?.clear();
    const again = await raw("/technology", br);
    expect(again.headers["x-cache"]).toBe("MISS");
    expect(again.body.equals(atQuality(again.body, 11))).toBe(true);
    expect(again.body.length).toBeLessThan(first.body.length);
    // A page nobody came back to stays at the quicker level.
    app.pageCache?.clear();
    const once = await raw("/opinion", br);
    expect(once.headers["x-cache"]).toBe("MISS");
    expect(once.body.equals(atQuality(once.body, 9))).toBe(true);
  });

  it("renders once for many readers asking for the same page at the same moment", async () => {
    const before = await renders();
    const answers = await Promise.all(Array.from({ length: 12 }, () => raw("/world-news")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await renders()) - before).toBe(1);
    expect(new Set(answers.map((a) => a.body.toString())).size).toBe(1);
  });

  it("answers a page past its TTL at once, stale, while one render replaces it", async () => {
    // Pages fresh for a second here (a minute by default).
    const quick = await startTestApp(handle, { PAGE_CACHE_SECONDS: "1" });
    try {
      const first = await raw("/sports", {}, "GET", quick.base);
      expect(first.headers["x-cache"]).toBe("MISS");
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await upsertArticle(handle.db, {
        id: "stale-test-story",
        category: "sports",
        link: "https://sample.example.org/stale-test-story",
        title: "Padres open spring training",
        excerpt: "Pitchers and catchers report.",
        content: "<p>Body</p>",
        author: "Staff Writer",
        publishedAt: new Date(),
      });
      const before = await renders(quick);
      const readers = await Promise.all(
        Array.from({ length: 5 }, () => raw("/sports", {}, "GET", quick.base)),
      );
      for (const answer of readers) {
        expect(answer.headers["x-cache"]).toBe("STALE");
        expect(answer.body.equals(first.body)).toBe(true);
        // As old as it is: a browser counts its max-age from then.
        expect(Number(answer.headers.age)).toBeGreaterThanOrEqual(1);
      }
      // The next reader gets the page rendered meanwhile, once for all five.
      await expect
        .poll(async () => (await raw("/sports", {}, "GET", quick.base)).headers["x-cache"])
        .toBe("HIT");
      expect((await renders(quick)) - before).toBe(1);
      const fresh = await raw("/sports", {}, "GET", quick.base);
      expect(fresh.body.toString()).toContain("Padres open spring training");
      expect(fresh.headers.age).toBeUndefined();
    } finally {
      await quick.close();
      // The other tests count the stored stories.
      await handle.db.delete(articles).where(eq(articles.id, "stale-test-story"));
    }
  });

  it("keeps answering an expired page, stale, while the database is away", async () => {
    const own = await database.open();
    await own.migrate();
    await upsertArticle(own.db, {
      id: "outage-story",
      category: "local-news",
      link: "https://sample.example.org/outage-story",
      title: "Harbor ferry adds a late run",
      excerpt: "Weekends only.",
      content: "<p>Body</p>",
      author: "Staff Writer",
      publishedAt: new Date(),
    });
    const quick = await startTestApp(own, { PAGE_CACHE_SECONDS: "1" });
    try {
      const first = await raw("/local-news", {}, "GET", quick.base);
      expect(first.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // The database goes away: every render now fails to read it.
      await own.close();
      const uncached = await raw("/article/outage-story", {}, "GET", quick.base);
      expect(uncached.status).toBe(503);
      const before = await renders(quick);
      for (let i = 0; i < 3; i++) {
        const answer = await raw("/local-news", {}, "GET", quick.base);
        expect(answer.status).toBe(200);
        expect(answer.headers["x-cache"]).toBe("STALE");
        expect(answer.body.equals(first.body)).toBe(true);
        // Each reader's background render failed and kept nothing: the next one tries again.
        await expect.poll(() => renders(quick)).toBe(before + i + 1);
      }
    } finally {
      await quick.close();
      await own.dispose();
    }
  });

  it("is emptied as soon as an ingest pass stores new articles, and shows them", async () => {
    await raw("/");
    expect((await raw("/")).headers["x-cache"]).toBe("HIT");
    feeds.route("/new.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(
        rssFeed("Sample", [
          {
            guid: "fresh",
            title: "Fresh harbor news",
            date: FRESH_DATE,
            link: "https://sample.example.org/fresh",
          },
        ]),
      );
    });
    const summary = await runIngestPass([{ url: feeds.url("/new.xml"), category: "local-news" }], {
      database: handle,
      logger: pino({ level: "silent" }),
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      force: true,
    });
    expect(summary.inserted).toBe(1);
    const after = await raw("/");
    expect(after.headers["x-cache"]).toBe("MISS");
    expect(after.body.toString()).toContain("Fresh harbor news");
  });

  it("a pass that changes nothing keeps the cache", async () => {
    await raw("/");
    const summary = await runIngestPass([{ url: feeds.url("/new.xml"), category: "local-news" }], {
      database: handle,
      logger: pino({ level: "silent" }),
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      force: true,
    });
    expect(summary.inserted + summary.updated).toBe(0);
    expect((await raw("/")).headers["x-cache"]).toBe("HIT");
  });

  it("never serves a reader's own poll page to others, nor others' to them", async () => {
    await raw("/community");
    const anonymous = await raw("/community");
    expect(anonymous.headers["x-cache"]).toBe("HIT");
    expect(anonymous.headers.vary).toContain("Cookie");
    const voter = { cookie: "poll_voter=6f1c1a8e-2f3b-4c5d-8e9f-0a1b2c3d4e5f" };
    expect((await raw("/community", voter)).headers["x-cache"]).toBe("BYPASS");
    expect((await raw("/community", voter)).headers["x-cache"]).toBe("BYPASS");
    expect((await raw("/community")).headers["x-cache"]).toBe("HIT");
  });

  it("a reader with unrelated cookies still gets cached pages", async () => {
    await raw("/sports");
    expect((await raw("/sports", { cookie: "theme=dark" })).headers["x-cache"]).toBe("HIT");
  });
});

describe("validators and compression", () => {
  it("answers a matching If-None-Match with 304 and no body", async () => {
    const first = await raw("/politics");
    const etag = first.headers.etag ?? "";
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await raw("/politics", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await raw("/politics", { "if-none-match": '"other"' })).status).toBe(200);
  });

  it.each([
    ["br, gzip", "br"],
    ["gzip, deflate", "gzip"],
    ["gzip;q=1, br;q=0", "gzip"],
    ["identity", undefined],
    ["", undefined],
  ])("Accept-Encoding %j gets %s, and the same page", async (accept, encoding) => {
    const plain = await raw("/technology");
    const answer = await raw("/technology", accept ? { "accept-encoding": accept } : {});
    expect(answer.headers["content-encoding"]).toBe(encoding);
    expect(answer.headers.vary).toContain("Accept-Encoding");
    const body =
      encoding === "br"
        ? zlib.brotliDecompressSync(answer.body)
        : encoding === "gzip"
          ? zlib.gunzipSync(answer.body)
          : answer.body;
    expect(body.equals(plain.body)).toBe(true);
    if (encoding) expect(answer.body.length).toBeLessThan(plain.body.length / 3);
  });

  it("chooses encodings as the header asks", () => {
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("br;q=0, *;q=0.5")).toBe("gzip");
    expect(chooseEncoding(undefined)).toBe("identity");
    // Values are remembered: asked again, and past the number kept, the answer is the same.
    for (let i = 0; i < 100; i++) {
      expect(chooseEncoding(`gzip;q=0.${(i % 9) + 1}, x-unknown-${i}`)).toBe("gzip");
    }
    expect(chooseEncoding("br;q=0, *;q=0.5")).toBe("gzip");
    expect(chooseEncoding("gzip;q=0")).toBe("identity");
  });

  it("serves the build's precompressed scripts, cached for a year", async () => {
    const assets = path.resolve("build/client/assets");
    const script = fs.readdirSync(assets).find((f) => f.endsWith(".js"));
    const answer = await raw(`/assets/${script}`, { "accept-encoding": "br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(
      zlib
        .brotliDecompressSync(answer.body)
        .equals(fs.readFileSync(path.join(assets, script ?? ""))),
    ).toBe(true);
  });
  it("serves the build's public files for an hour; other addresses are pages", async () => {
    const icon = await raw("/icons/icon-192.png");
    expect(icon.status).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/png");
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
    expect(icon.body.equals(fs.readFileSync(path.resolve("build/client/icons/icon-192.png")))).toBe(
      true,
    );
    // A folder of the build, or a file that is not in it, is the site's own not-found page.
    for (const route of ["/icons", "/icons/", "/images/no-such.png"]) {
      const answer = await raw(route);
      expect(answer.status, route).toBe(404);
      expect(answer.headers["content-type"], route).toMatch(/^text\/html/);
    }
  });
});

describe("addresses with a broken %-escape", () => {
  it("are refused with 400 and a clear message, in the path only", async () => {
    for (const route of ["/%E0%A4%A", "/article/%ZZ", "/local-news/%C0%80", "/%"]) {
      const answer = await raw(route);
      expect(answer.status, route).toBe(400);
      expect(answer.headers["cache-control"], route).toBe("no-store");
      expect(answer.body.toString(), route).toBe(MALFORMED_PATH_MESSAGE);
    }
    // A query is the page's to read: search answers with its page.
    expect((await raw("/search?q=%E0%A4%A")).status).toBe(200);
    expect((await raw("/local-news?x=%ZZ")).status).toBe(200);
  });
});

describe("Cache-Control for each kind of answer", () => {
  it.each([
    ["/", "GET", PAGE_CACHE_CONTROL],
    ["/no-such-page", "GET", "no-store"],
    ["/healthz", "GET", "no-store"],
    ["/robots.txt", "GET", "public, max-age=3600"],
    ["/rss.xml", "GET", "public, max-age=300"],
  ])("%s (%s): %s", async (route, method, expected) => {
    expect((await raw(route, {}, method)).headers["cache-control"]).toBe(expected);
  });

  it("a form answer is never cached", async () => {
    const answer = await fetch(`${app.base}/newsletter`, {
      method: "POST",
      body: new URLSearchParams({ email: "cache@example.com", returnTo: "/" }),
      redirect: "manual",
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("health, readiness and metrics", () => {
  it("/healthz says the process is up", async () => {
    const answer = await fetch(`${app.base}/healthz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "ok" });
  });

  it("/readyz reports the database, the migrations and the last ingest", async () => {
    const answer = await fetch(`${app.base}/readyz`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Awaited<ReturnType<typeof readiness>>;
    expect(body).toMatchObject({ ready: true, database: "ok" });
    expect(body.migrations.applied).toBe(body.migrations.expected);
    expect(body.lastIngest.at).not.toBeNull();
    expect(body.lastIngest.ageSeconds).toBeGreaterThanOrEqual(0);
  });

  it("is not ready when the database cannot be reached or lacks migrations", async () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "news-ready-"));
    const empty = await openDatabase({ kind: "pglite", dataDir: dir }, { owner: "a test" });
    expect(await readiness(empty.db)).toMatchObject({
      ready: false,
      database: "ok",
      migrations: { applied: 0 },
    });
    await empty.close();
    expect(await readiness(empty.db)).toMatchObject({ ready: false, database: "unreachable" });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("/metrics answers only the configured bearer token", async () => {
    const withToken = (value: string) =>
      fetch(`${app.base}/metrics`, { headers: { Authorization: value } });
    const none = await fetch(`${app.base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.text()).not.toMatch(/nodejs|http_requests_total/);
    expect((await withToken(`Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await withToken(METRICS_TOKEN)).status).toBe(401);
    expect((await withToken(`Bearer ${METRICS_TOKEN}`)).status).toBe(200);
    expect((await fetch(`${app.base}/healthz`)).status).toBe(200);
  });

  it("/metrics is not served at all without a token configured", async () => {
    const bare = await startTestApp(handle);
    try {
      const response = await fetch(`${bare.base}/metrics`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toMatch(/http_requests_total/);
    } finally {
      await bare.close();
    }
  });

  it("/metrics speaks Prometheus: requests by route and status, cache outcomes, articles", async () => {
    await raw("/article/story-1");
    await raw("/article/story-1");
    const text = await (
      await fetch(`${app.base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(text).toMatch(
      /http_requests_total\{method="GET",route="\/article\/:id",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="[\d.]+",route="\/article\/:id"\}/,
    );
    expect(text).toMatch(/page_cache_requests_total\{outcome="hit"\} \d+/);
    expect(text).toMatch(/page_renders_total \d+/);
    expect(text).toMatch(/^articles 7$/m);
  });
});
