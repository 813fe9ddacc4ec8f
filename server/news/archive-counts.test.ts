import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { archiveCountsAndRows } from "../test-support/archive-counts";
import { upsertArticle } from "./repository";
import { archiveArticles } from "./archive";

reportSkippedPostgres();

/** archive_counts is kept by triggers: after any write it says what counting the rows says. */
describe.each(testDatabases())("archive counts on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  const counted = async () => (await archiveCountsAndRows(handle.db)).counted;
  const kept = async () => (await archiveCountsAndRows(handle.db)).kept;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("follows inserts, updates, take-downs and deletes", async () => {
    const story = (id: string, category: string, date: string) => ({
      id,
      category,
      link: `https://sample.example.org/${id}`,
      title: id,
      excerpt: "",
      content: "<p>x</p>",
      author: "Staff Writer",
      publishedAt: new Date(date),
    });
    // New Year's Eve in San Diego is already the next year in UTC.
    await upsertArticle(handle.db, story("a", "politics", "2025-01-01T05:00:00Z"));
    await handle.db
      .insert(articles)
      .values([
        story("b", "politics", "2025-06-01T00:00:00Z"),
        story("c", "sports", "2024-06-01T00:00:00Z"),
        story("d", "sports", "2024-07-01T00:00:00Z"),
      ]);
    expect(await kept()).toEqual(await counted());
    // Each year's row of category "" counts every category (one card per story group).
    expect(await kept()).toEqual([
      { year: 2024, category: "", n: 3 },
      { year: 2024, category: "politics", n: 1 },
      { year: 2024, category: "sports", n: 2 },
      { year: 2025, category: "", n: 1 },
      { year: 2025, category: "politics", n: 1 },
    ]);
    // Unchanged again (as a pass that sees the item again), moved a year, taken down, deleted.
    await upsertArticle(handle.db, story("a", "politics", "2025-01-01T05:00:00Z"));
    await upsertArticle(handle.db, story("b", "politics", "2026-02-01T00:00:00Z"));
    await handle.db
      .update(articles)
      .set({ takenDownAt: new Date() })
      .where(inArray(articles.id, ["c", "a"]));
    await handle.db.delete(articles).where(eq(articles.id, "d"));
    expect(await kept()).toEqual(await counted());
    expect(await kept()).toEqual([
      { year: 2026, category: "", n: 1 },
      { year: 2026, category: "politics", n: 1 },
    ]);
    await handle.db.update(articles).set({ takenDownAt: null }).where(eq(articles.id, "c"));
    expect(await kept()).toEqual(await counted());
    const { total } = await archiveArticles(handle.db, { year: 2024, limit: 30, offset: 0 });
    expect(total).toBe(1);
  });

  it("pages by cursor as by offset, forwards and back", async () => {
    await handle.db.delete(articles);
    await handle.db.execute(sql`
      INSERT INTO articles (id, category, link, title, excerpt, content, author, published_at)
      SELECT 'p' || n, 'politics', 'https://sample.example.org/p' || n, 'Story ' || n, '', '',
             'Staff Writer', timestamptz '2025-03-01' + ((n / 3) || ' hours')::interval
        FROM generate_series(1, 95) AS n`);
    const ids = async (options: Parameters<typeof archiveArticles>[1]) =>
      (await archiveArticles(handle.db, options)).articles;
    const base = { year: 2025, limit: 30 };
    const byOffset = await Promise.all([0, 30, 60, 90].map((offset) => ids({ ...base, offset })));
    let page = await ids({ ...base, offset: 0 });
    for (const expected of byOffset.slice(1)) {
      const last = page.at(-1);
      if (!last) throw new Error("an empty page");
      page = await ids({
        ...base,
        offset: 0,
        cursor: { direction: "after", date: last.date, id: last.id },
      });
      expect(page.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    }
    const first = byOffset[2]?.[0];
    if (!first) throw new Error("no third page");
    const back = await ids({
      ...base,
      offset: 0,
      cursor: { direction: "before", date: first.date, id: first.id },
    });
    expect(back.map((a) => a.id)).toEqual(byOffset[1]?.map((a) => a.id));
  });
});
