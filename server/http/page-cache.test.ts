import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { BROTLI_QUALITY, cachedPage, PageCache, sharedMaxAgeMs } from "./page-cache";

describe("a page's own life in the page cache", () => {
  it("reads s-maxage from Cache-Control, and only it", () => {
    expect(sharedMaxAgeMs("public, max-age=60, s-maxage=31")).toBe(31_000);
    expect(sharedMaxAgeMs("S-MAXAGE=5,public")).toBe(5_000);
    expect(sharedMaxAgeMs("public, max-age=60, stale-while-revalidate=600")).toBeUndefined();
    expect(sharedMaxAgeMs(null)).toBeUndefined();
    expect(sharedMaxAgeMs("public, s-maxage=abc")).toBeUndefined();
  });

  it("keeps a page no longer than its s-maxage, nor than the cache's TTL", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now);
    const page = (lifeMs?: number) =>
      cachedPage(
        { status: 200, headers: [], body: Buffer.from("x"), varyCookie: false, lifeMs },
        0,
      );
    cache.set("/short", await page(30_000));
    cache.set("/long", await page(600_000));
    cache.set("/plain", await page());
    now = 30_000;
    expect(cache.get("/short")).toBeDefined();
    now = 30_001;
    expect(cache.get("/short")).toBeUndefined();
    expect(cache.get("/long")).toBeDefined();
    expect(cache.get("/plain")).toBeDefined();
    now = 60_001;
    expect(cache.get("/long")).toBeUndefined();
    expect(cache.get("/plain")).toBeUndefined();
  });
});

describe("a page past its TTL", () => {
  const page = (lifeMs?: number) =>
    cachedPage({ status: 200, headers: [], body: Buffer.from("x"), varyCookie: false, lifeMs }, 0);

  it("is found stale for the stale window, then gone; `get` gives fresh pages only", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now, 600_000);
    const plain = await page();
    cache.set("/plain", plain);
    now = 60_000;
    expect(cache.find("/plain")).toEqual({ page: plain, stale: false });
    now = 60_001;
    expect(cache.find("/plain")).toEqual({ page: plain, stale: true });
    expect(cache.get("/plain")).toBeUndefined();
    // Still there after `get` said no: the handler sends it while rendering it again.
    now = 660_000;
    expect(cache.find("/plain")).toEqual({ page: plain, stale: true });
    now = 660_001;
    expect(cache.find("/plain")).toBeUndefined();
    expect(cache.size.entries).toBe(0);
  });

  it("is never stale when it set its own life (s-maxage), nor after the cache is emptied", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now, 600_000);
    cache.set("/banner", await page(30_000));
    cache.set("/long", await page(600_000));
    cache.set("/plain", await page());
    now = 30_001;
    expect(cache.find("/banner")).toBeUndefined();
    now = 60_001;
    expect(cache.find("/long")).toBeUndefined();
    expect(cache.find("/plain")?.stale).toBe(true);
    cache.clear();
    expect(cache.find("/plain")).toBeUndefined();
  });

  it("is gone at once with no stale window (the default)", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now);
    cache.set("/plain", await page());
    now = 60_001;
    expect(cache.find("/plain")).toBeUndefined();
  });
});

describe("the page cache's bounds", () => {
  const page = (text: string, storedAt = 0) =>
    cachedPage({ status: 200, headers: [], body: Buffer.from(text), varyCookie: false }, storedAt);
  const bytes = (p: Awaited<ReturnType<typeof page>>) =>
    p.body.length + p.gzip.length + p.br.length;

  it("counts a page's bytes in all three forms and drops the least recently used beyond them", async () => {
    const a = await page("<p>a</p>");
    const b = await page("<p>b</p>");
    const c = await page("<p>c</p>");
    const d = await page("<p>d</p>");
    const each = bytes(a);
    const cache = new PageCache(3 * each, 60_000, () => 0);
    cache.set("/a", a);
    cache.set("/b", b);
    cache.set("/c", c);
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * each });
    expect(cache.get("/a")).toBe(a); // used again: now the most recent
    cache.set("/d", d); // over the bound: "/b" goes
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * each });
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBe(a);
    expect(cache.get("/c")).toBe(c);
    expect(cache.get("/d")).toBe(d);
  });

  it("never keeps a page larger than all its bytes", async () => {
    const small = await page("<p>small</p>");
    const cache = new PageCache(bytes(small), 60_000, () => 0);
    cache.set("/", small);
    expect(cache.get("/")).toBe(small);
    cache.set("/big", await page("<p>much larger than the small one</p>"));
    expect(cache.get("/big")).toBeUndefined();
    expect(cache.get("/")).toBe(small);
  });

  it("answers a stale page until its new render is kept, then the new one, fresh", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now, 600_000);
    const before = await page("<p>before</p>");
    cache.set("/", before);
    now = 90_000;
    expect(cache.find("/")).toEqual({ page: before, stale: true });
    const after = await page("<p>after</p>", now);
    cache.set("/", after, cache.generation);
    expect(cache.find("/")).toEqual({ page: after, stale: false });
    // Fresh for a whole TTL from its own render, stale for the window after that.
    now = 150_000;
    expect(cache.get("/")).toBe(after);
    now = 150_001;
    expect(cache.find("/")).toEqual({ page: after, stale: true });
    now = 750_001;
    expect(cache.find("/")).toBeUndefined();
  });
});

describe("pages readers come back to", () => {
  const body = Buffer.from(
    Array.from(
      { length: 400 },
      (_, i) => `<li><a href="/article/story-${i * 7919}">Harbor story ${i} of the day</a></li>`,
    ).join(""),
  );
  const page = (best: boolean) =>
    cachedPage({ status: 200, headers: [], body, varyCookie: false }, 0, { best });
  const quality = (q: number) =>
    zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } });

  it("are compressed at brotli's best level, others at a quicker one", async () => {
    expect((await page(false)).br.equals(quality(BROTLI_QUALITY.first))).toBe(true);
    const best = await page(true);
    expect(best.br.equals(quality(11))).toBe(true);
    expect(zlib.brotliDecompressSync(best.br).equals(body)).toBe(true);
    expect(best.br.length).toBeLessThan((await page(false)).br.length);
  });

  it("are those answered from the cache, remembered after the cache is emptied or expires", async () => {
    let now = 0;
    const cache = new PageCache(1 << 20, 60_000, () => now);
    cache.set("/", await page(false));
    expect(cache.wasRead("/")).toBe(false);
    expect(cache.get("/missing")).toBeUndefined();
    expect(cache.wasRead("/missing")).toBe(false);
    expect(cache.get("/")).toBeDefined();
    expect(cache.wasRead("/")).toBe(true);
    cache.clear();
    expect(cache.wasRead("/")).toBe(true);
    cache.set("/", await page(true));
    now = 120_000;
    expect(cache.get("/")).toBeUndefined();
    expect(cache.wasRead("/")).toBe(true);
  });

  it("are remembered up to a bound, the least recently read forgotten first", async () => {
    const cache = new PageCache(1 << 20, 60_000);
    const kept = await cachedPage(
      { status: 200, headers: [], body: Buffer.from("x"), varyCookie: false },
      Date.now(),
    );
    for (let i = 0; i <= 2048; i++) {
      cache.set(`/article/${i}`, kept);
      cache.get(`/article/${i}`);
    }
    expect(cache.wasRead("/article/0")).toBe(false);
    expect(cache.wasRead("/article/1")).toBe(true);
    expect(cache.wasRead("/article/2048")).toBe(true);
  });
});

describe("a page rendered while the cache is emptied", () => {
  it("is not kept: it may show what the emptying was for (a story taken down)", async () => {
    const cache = new PageCache(1 << 20, 60_000);
    const page = await cachedPage(
      { status: 200, headers: [], body: Buffer.from("<p>before</p>"), varyCookie: false },
      Date.now(),
    );
    const before = cache.generation;
    // An ingest pass or a take-down empties the cache while the page is being rendered.
    cache.clear();
    cache.set("/", page, before);
    expect(cache.get("/")).toBeUndefined();
    cache.set("/", page, cache.generation);
    expect(cache.get("/")).toBe(page);
  });
});
