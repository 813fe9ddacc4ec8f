import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, blogPosts } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { upsertArticle } from "./repository";
import { searchSite } from "./search";

reportSkippedPostgres();

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/** Stories whose words a reader may mistype, spell without accents or quote as a phrase. */
const STORIES = [
  { id: "cafe", title: "Café opens in North Park", excerpt: "Crème brûlée on the menu.", age: 10 },
  {
    id: "council-today",
    title: "Harbor plan heads to a vote",
    excerpt: "The city council meets.",
    age: 0,
  },
  {
    id: "council-title",
    title: "Council approves the budget",
    excerpt: "Votes were 6 to 3.",
    age: 300,
  },
  {
    id: "council-apart",
    title: "Council hears the city budget",
    excerpt: "A long night.",
    age: 20,
  },
  { id: "budget-old", title: "School budget cut", excerpt: "Parents respond.", age: 900 },
  { id: "budget-new", title: "School budget cut", excerpt: "Parents respond.", age: 5 },
  { id: "jalapeno", title: "Jalapeño festival returns", excerpt: "Spicy weekend ahead.", age: 40 },
];

/** Query, then the stories expected first (in this order), and `near`: the query a typo was taken for. */
const CASES: { query: string; first: string[]; near?: string; without?: string[] }[] = [
  { query: "cafe", first: ["cafe"] },
  { query: "café", first: ["cafe"] },
  { query: "creme brulee", first: ["cafe"] },
  { query: "jalapeno", first: ["jalapeno"] },
  { query: "Jalapeño", first: ["jalapeno"] },
  { query: "councl", first: ["council-apart", "council-title", "council-today"], near: "council" },
  { query: "jalapno festvial", first: ["jalapeno"], near: "jalapeno festival" },
  { query: '"harbr plan"', first: ["council-today"], near: '"harbor plan"' },
  { query: "zeppelinography", first: [] },
  {
    query: '"city council"',
    first: ["council-today"],
    without: ["council-apart", "council-title"],
  },
  // A headline match of last year outranks an excerpt match of today.
  { query: "council", first: ["council-apart", "council-title", "council-today"] },
  // Equal matches: the newer first.
  { query: "school budget", first: ["budget-new", "budget-old"] },
];

describe.each(testDatabases())("search finds what readers mean, on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.db.delete(articles);
    await handle.db.delete(blogPosts);
    for (const story of STORIES) {
      await upsertArticle(handle.db, {
        id: story.id,
        category: "local-news",
        link: `https://sample.example.org/${story.id}`,
        title: story.title,
        excerpt: story.excerpt,
        content: "<p>Body</p>",
        author: "Staff Writer",
        publishedAt: daysAgo(story.age),
      });
    }
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it.each(CASES)("$query", async ({ query, first, near, without = [] }) => {
    const result = await searchSite(handle.db, query, { page: 1 });
    const ids = result.hits.map((h) => (h.kind === "article" ? h.id : h.slug));
    expect(result.near).toBe(near);
    expect(ids.slice(0, Math.max(1, first.length))).toEqual(first);
    for (const id of without) expect(ids).not.toContain(id);
  });

  it("corrects to the words of a retitled headline", async () => {
    await handle.db
      .update(articles)
      .set({ title: "Café opens in North Park with tortillas" })
      .where(eq(articles.id, "cafe"));
    const result = await searchSite(handle.db, "tortilas", { page: 1 });
    expect(result.near).toBe("tortillas");
    expect(result.hits.map((h) => (h.kind === "article" ? h.id : h.slug))).toEqual(["cafe"]);
  });

  it("takes no word for a typo on a page past the last of its matches", async () => {
    // "votes" is in an excerpt only; the headlines' words, which typos are corrected by, have "vote".
    const first = await searchSite(handle.db, "votes", { page: 1 });
    expect(first.near).toBeUndefined();
    expect(first.hits.map((h) => (h.kind === "article" ? h.id : h.slug))).toContain(
      "council-title",
    );
    const past = await searchSite(handle.db, "votes", { page: 2 });
    expect(past.near).toBeUndefined();
    expect(past.hits).toEqual([]);
    expect(past.total).toBe(first.total);
  });

  it("marks an accented word matched by its plain spelling", async () => {
    const { hits } = await searchSite(handle.db, "cafe", { page: 1 });
    expect(hits[0]?.title[0]).toEqual({ text: "Café", match: true });
  });
});
