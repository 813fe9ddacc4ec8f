import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db/client";
import { articles, sitemapMonths } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { articleSitemap, articleSitemapMonths, sitemapFile, sitemapFileName } from "./queries";

reportSkippedPostgres();

describe("article sitemap file names", () => {
  it("reads a month's first part by the month alone, and later parts by number", () => {
    expect(sitemapFile("2026-11")).toEqual({ month: "2026-11", part: 1 });
    expect(sitemapFile("2026-11-2")).toEqual({ month: "2026-11", part: 2 });
    for (const name of [
      "2026-11-1",
      "2026-11-0",
      "2026-13",
      "2026-11-",
      "26-11",
      "2026-11-99999",
    ]) {
      expect(sitemapFile(name), name).toBeNull();
    }
    expect(sitemapFileName({ month: "2026-11", part: 1 })).toBe("2026-11");
    expect(sitemapFileName({ month: "2026-11", part: 3 })).toBe("2026-11-3");
  });
});

/** sitemap_months is kept by triggers; a month of more articles than a file holds is split. */
describe.each(testDatabases())("article sitemaps by month on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  const story = (id: string, firstSeen: string) => ({
    id,
    category: "local-news",
    link: `https://sample.example.org/${id}`,
    title: `Sample story ${id}`,
    excerpt: "",
    content: "<p>x</p>",
    author: "Staff Writer",
    publishedAt: new Date(firstSeen),
    firstSeenAt: new Date(firstSeen),
  });

  /** The rows kept, and what counting the live articles says. */
  async function keptAndCounted() {
    const kept = await handle.db
      .select()
      .from(sitemapMonths)
      .where(sql`${sitemapMonths.articles} <> 0`)
      .orderBy(sitemapMonths.month);
    const counted = rowsOf<{ month: string; articles: number | string }>(
      await handle.db.execute(sql`
        SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*) AS articles
          FROM articles WHERE taken_down_at IS NULL GROUP BY 1 ORDER BY 1`),
    ).map((r) => ({ month: r.month, articles: Number(r.articles) }));
    return { kept, counted };
  }

  it("counts each month's live articles through inserts, take-downs and deletes", async () => {
    // Seven in November (one on its last evening in San Diego: December in UTC), one in October.
    const november = Array.from({ length: 7 }, (_, i) =>
      story(`n${i}`, `2026-11-${String(10 + i).padStart(2, "0")}T12:00:00Z`),
    );
    await handle.db
      .insert(articles)
      .values([
        ...november,
        story("o1", "2026-10-05T12:00:00Z"),
        story("d1", "2026-12-01T03:00:00Z"),
      ]);
    let { kept, counted } = await keptAndCounted();
    expect(kept).toEqual(counted);
    expect(kept).toEqual([
      { month: "2026-10", articles: 1 },
      { month: "2026-11", articles: 7 },
      { month: "2026-12", articles: 1 },
    ]);

    await handle.db.update(articles).set({ takenDownAt: new Date() }).where(eq(articles.id, "n6"));
    await handle.db.delete(articles).where(inArray(articles.id, ["o1", "d1"]));
    // An update that takes nothing on or off the site changes no count.
    await handle.db.update(articles).set({ title: "Retitled" }).where(eq(articles.id, "n0"));
    ({ kept, counted } = await keptAndCounted());
    expect(kept).toEqual(counted);
    expect(kept).toEqual([{ month: "2026-11", articles: 6 }]);
  });

  it("splits a month of more articles than a file holds, each article in one file", async () => {
    const files = await articleSitemapMonths(handle.db, 4);
    expect(files.map(sitemapFileName)).toEqual(["2026-11", "2026-11-2"]);
    expect(files.every((f) => f.lastmod instanceof Date)).toBe(true);

    const first = await articleSitemap(handle.db, "2026-11", 1, 4);
    const second = await articleSitemap(handle.db, "2026-11", 2, 4);
    expect(first.map((e) => e.path)).toEqual(
      ["n0", "n1", "n2", "n3"].map((id) => `/article/${id}`),
    );
    expect(second.map((e) => e.path)).toEqual(["n4", "n5"].map((id) => `/article/${id}`));
    expect(await articleSitemap(handle.db, "2026-11", 3, 4)).toEqual([]);

    // At the protocol's limit the month is one file, under the name it always had.
    expect((await articleSitemapMonths(handle.db)).map(sitemapFileName)).toEqual(["2026-11"]);
    expect(await articleSitemap(handle.db, "2026-11")).toHaveLength(6);
  });
});
