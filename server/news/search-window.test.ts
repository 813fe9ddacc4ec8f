import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, storyGroups } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/client";
import { upsertArticle } from "./repository";
import { refreshSearchWindows, searchWindowsOf } from "./search-window";

reportSkippedPostgres();

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n, 12));

describe.each(testDatabases())("search windows on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  const store = async (from: number, count: number) => {
    for (let n = from; n < from + count; n++) {
      await upsertArticle(handle.db, {
        id: `story-${n}`,
        category: "local-news",
        link: `https://sample.example.org/story-${n}`,
        title: `Story ${n}`,
        excerpt: "Nothing to see.",
        content: "<p>Body</p>",
        image: null,
        author: "Staff Writer",
        publishedAt: day(n),
      });
    }
  };

  const indexes = async () =>
    rowsOf<{ indexname: string }>(
      await handle.db.execute(sql`
        SELECT indexname FROM pg_indexes
         WHERE tablename = 'articles' AND indexname LIKE 'articles_search_window%'
         ORDER BY indexname`),
    ).map((row) => row.indexname);

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.db.delete(articles);
    await handle.db.delete(storyGroups);
  });

  afterAll(async () => {
    await refreshSearchWindows(handle.db, []);
    await handle?.dispose();
  });

  it("has no window until the site holds its number and a quarter more", async () => {
    await store(0, 12);
    expect(await refreshSearchWindows(handle.db, [4, 10])).toBe(true);
    expect(await searchWindowsOf(handle.db)).toMatchObject([
      { stories: 4, since: day(8), cuts: false },
    ]);
    expect(await indexes()).toEqual(["articles_search_window_4"]);
    await store(12, 1);
    expect(await refreshSearchWindows(handle.db, [4, 10])).toBe(true);
    expect((await searchWindowsOf(handle.db)).map((w) => [w.stories, w.since, w.cuts])).toEqual([
      [4, day(8), false],
      [10, day(3), true],
    ]);
    expect(await indexes()).toEqual(["articles_search_window_10", "articles_search_window_4"]);
  });

  it("moves a window once a quarter more stories came in, not before", async () => {
    const before = await searchWindowsOf(handle.db);
    await store(13, 2);
    // Two new stories: within the 10-window's quarter, past the 4-window's (1).
    expect(await refreshSearchWindows(handle.db, [4, 10])).toBe(true);
    const after = await searchWindowsOf(handle.db);
    expect(after.find((w) => w.stories === 4)?.since).toEqual(day(11));
    expect(after.find((w) => w.stories === 10)).toEqual(before.find((w) => w.stories === 10));
    expect(await refreshSearchWindows(handle.db, [4, 10])).toBe(false);
  });

  it("drops a window when the site holds fewer stories than its number, and one not asked for", async () => {
    await handle.db.execute(sql`UPDATE articles SET taken_down_at = now() WHERE id <> 'story-0'
                                   AND id NOT IN ('story-14', 'story-13', 'story-12', 'story-11',
                                                  'story-10')`);
    expect(await refreshSearchWindows(handle.db, [4, 10])).toBe(true);
    expect((await searchWindowsOf(handle.db)).map((w) => w.stories)).toEqual([4]);
    expect(await indexes()).toEqual(["articles_search_window_4"]);
    expect(await refreshSearchWindows(handle.db, [])).toBe(true);
    expect(await searchWindowsOf(handle.db)).toEqual([]);
    expect(await indexes()).toEqual([]);
  });

  it("counts a story group once, as the archive counts do: no window built anew every pass", async () => {
    await handle.db.execute(sql`UPDATE articles SET taken_down_at = now()`);
    await store(20, 6);
    expect(await refreshSearchWindows(handle.db, [4])).toBe(true);
    expect((await searchWindowsOf(handle.db)).map((w) => w.stories)).toEqual([4]);
    // Five of the six become one story: two as the archive counts count them, fewer than 4.
    await handle.db.insert(storyGroups).values({ id: "group-21", leadId: "story-21" });
    await handle.db.execute(sql`
      UPDATE articles SET story_group = 'group-21', group_lead = (id = 'story-21'),
                          category_lead = (id = 'story-21')
       WHERE id IN ('story-21', 'story-22', 'story-23', 'story-24', 'story-25')`);
    expect(await refreshSearchWindows(handle.db, [4])).toBe(true);
    expect(await searchWindowsOf(handle.db)).toEqual([]);
    expect(await indexes()).toEqual([]);
    // Counting every version, the window's edge was found and its index built on every pass.
    expect(await refreshSearchWindows(handle.db, [4])).toBe(false);
    expect(await refreshSearchWindows(handle.db, [4])).toBe(false);
  });
});
