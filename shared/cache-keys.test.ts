import { describe, expect, it } from "vitest";
import {
  articleKey,
  blogPostKey,
  cacheKeyHeaders,
  cardIds,
  MAX_PAGE_KEYS,
  pageKeys,
  storyChangeKeys,
} from "./cache-keys";

describe("cache keys", () => {
  it.each([
    ["harbor-budget-passes-32d156f74d2cd5db", "article-harbor-budget-passes-32d156f74d2cd5db"],
    ["Caps And Spaces", "article-caps_and_spaces"],
    ["a,b|c.*(d)", "article-a_b_c___d_"],
    ["x".repeat(200), `article-${"x".repeat(92)}`],
  ])("an id %j is the key word %j", (id, key) => {
    expect(articleKey(id)).toBe(key);
  });

  it("a blog post's slug is a key word too", () => {
    expect(blogPostKey("Balboa Park, on a budget")).toBe("blog-post-balboa_park__on_a_budget");
  });

  it("a page names its routes' keys and its cards', each once", () => {
    expect(
      pageKeys([
        { keys: ["site"] },
        { keys: ["home"], cards: ["a", "b", "a"] },
        { keys: [articleKey("b")], cards: ["b", "c"] },
      ]),
    ).toEqual(["site", "home", "article-b", "article-a", "article-c"]);
  });

  it("a page with 50 cards keeps only its own keys, and its headers stay small", () => {
    const ids = Array.from(
      { length: 50 },
      (_, i) => `a-rather-long-headline-of-a-story-${i}-${"f".repeat(16)}`,
    );
    const keys = pageKeys([{ keys: ["site"] }, { keys: ["category-local-news"], cards: ids }]);
    expect(keys).toEqual(["site", "category-local-news"]);
    // Up to the limit, the cards are named.
    const fits = pageKeys([{ keys: ["site"] }, { keys: ["archives"], cards: ids.slice(0, 30) }]);
    expect(fits).toHaveLength(MAX_PAGE_KEYS);
    const headers = cacheKeyHeaders(fits);
    expect(headers["Surrogate-Key"]?.split(" ")).toEqual(fits);
    expect(headers["Cache-Tag"]?.split(",")).toEqual(fits);
    expect(headers["Surrogate-Key"]?.length).toBeLessThan(4 * 1024);
    expect(cacheKeyHeaders([])).toEqual({});
  });

  it("reads card ids from loader data of any shape", () => {
    expect(
      cardIds([{ id: "a" }, { id: 3 }, null, "b", { title: "c" }], undefined, { id: "x" }),
    ).toEqual(["a"]);
  });

  it("a change to stories names the lists they are on; a story's page only if it was on the site", () => {
    expect(storyChangeKeys([], ["sports", "sports"])).toEqual([
      "home",
      "category-sports",
      "archives",
      "search",
      "feeds",
      "sitemaps",
    ]);
    expect(storyChangeKeys([{ id: "x", category: "politics" }], ["sports"])).toEqual([
      "home",
      "category-politics",
      "category-sports",
      "archives",
      "search",
      "feeds",
      "sitemaps",
      "article-x",
    ]);
    expect(storyChangeKeys([])).toEqual([]);
  });
});
