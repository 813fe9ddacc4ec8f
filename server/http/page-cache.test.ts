import { describe, expect, it } from "vitest";
import { cachedPage, PageCache, sharedMaxAgeMs } from "./page-cache";

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
