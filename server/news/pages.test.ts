import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategoryKey } from "../../shared/categories";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { articleById, latestArticles, relatedArticles, upsertArticle } from "./repository";
import { homeLists } from "./home-lists";

reportSkippedPostgres();

const CATEGORIES: CategoryKey[] = [
  "local-news",
  "national-news",
  "world-news",
  "business",
  "technology",
  "sports",
];

/** Four articles per category, one day apart, categories interleaved so order is by date alone. */
async function seed(db: Parameters<typeof upsertArticle>[0]) {
  let day = 0;
  for (let n = 0; n < 4; n++) {
    for (const category of CATEGORIES) {
      day++;
      await upsertArticle(db, {
        id: `${category}-${n}`,
        category,
        link: `https://sample.example.org/${category}/${n}`,
        title: `${category} ${n}`,
        excerpt: "x",
        content: "<p>x</p>",
        author: "Staff Writer",
        publishedAt: new Date(Date.UTC(2026, 0, day)),
      });
    }
  }
}

describe.each(testDatabases())("spec §9 lists on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await seed(handle.db);
  });
  afterAll(async () => handle?.dispose());

  it("featured: the first 2 of Local, National and World News, at most 6", async () => {
    expect((await homeLists(handle.db)).featured.map((a) => a.id)).toEqual([
      "local-news-3",
      "local-news-2",
      "national-news-3",
      "national-news-2",
      "world-news-3",
      "world-news-2",
    ]);
  });

  it("recent: 3 each of Local, National, World, Business and Technology, newest first", async () => {
    const { recent } = await homeLists(handle.db);
    expect(recent).toHaveLength(15);
    expect(recent.some((a) => a.category === "sports")).toBe(false);
    for (const category of [
      "local-news",
      "national-news",
      "world-news",
      "business",
      "technology",
    ]) {
      expect(recent.filter((a) => a.category === category).map((a) => a.id)).toEqual([
        `${category}-3`,
        `${category}-2`,
        `${category}-1`,
      ]);
    }
    const dates = recent.map((a) => a.date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("headlines: the 5 newest of any category, each the same object as in the recent list", async () => {
    const { headlines, recent } = await homeLists(handle.db);
    const newest = await latestArticles(handle.db, { limit: 5 });
    expect(headlines).toHaveLength(5);
    expect(headlines).toEqual(newest);
    const inRecent = headlines.filter((h) => recent.some((r) => r.id === h.id));
    expect(inRecent.length).toBeGreaterThan(0);
    for (const headline of inRecent) expect(recent).toContain(headline);
  });

  it("related: up to 3 others of the same category, newest first, never the article itself", async () => {
    const article = await articleById(handle.db, "sports-3");
    if (!article) throw new Error("seed missing");
    expect((await relatedArticles(handle.db, article)).map((a) => a.id)).toEqual([
      "sports-2",
      "sports-1",
      "sports-0",
    ]);
    const oldest = await articleById(handle.db, "sports-0");
    if (!oldest) throw new Error("seed missing");
    expect((await relatedArticles(handle.db, oldest)).map((a) => a.id)).toEqual([
      "sports-3",
      "sports-2",
      "sports-1",
    ]);
  });

  it("latest sidebar: the 4 newest other articles", async () => {
    expect(
      (await latestArticles(handle.db, { limit: 4, excludeId: "sports-3" })).map((a) => a.id),
    ).toEqual(["technology-3", "business-3", "world-news-3", "national-news-3"]);
  });
});
