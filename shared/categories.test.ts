import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  CATEGORY_PAGES,
  FEED_CATEGORIES,
  articleCategory,
  categoryByKey,
  categoryByPath,
  errorText,
  legacyRedirect,
  loadingText,
} from "./categories";

describe("category registry", () => {
  it("has the spec's 15 category pages", () => {
    expect(CATEGORY_PAGES.map((c) => c.path).sort()).toEqual(
      [
        "/local-news",
        "/national-news",
        "/world-news",
        "/politics",
        "/community",
        "/business",
        "/technology",
        "/sports",
        "/arts-culture",
        "/opinion",
        "/food",
        "/lifestyle",
        "/automotive",
        "/real-estate",
        "/health",
      ].sort(),
    );
  });

  it("names each page's category as the spec's table does, with its toggle label", () => {
    const table = Object.fromEntries(CATEGORY_PAGES.map((c) => [c.path, [c.name, c.toggleLabel]]));
    expect(table).toEqual({
      "/local-news": ["Local News", "See All Local News"],
      "/national-news": ["National News", "See All National News"],
      "/world-news": ["World News", "See All World News"],
      "/politics": ["Politics / Government", null],
      "/community": ["Local News", null],
      "/business": ["Business & Finance", "See All Business News"],
      "/technology": ["Technology & Innovation", "See All Technology News"],
      "/sports": ["Sports & Recreation", "See All Sports News"],
      "/arts-culture": ["Arts & Culture", "See All Arts & Culture News"],
      "/opinion": ["Opinion & Editorial", "See All Opinion Pieces"],
      "/food": ["Food & Dining", "See All Food & Dining News"],
      "/lifestyle": ["Lifestyle & Wellness", "See All Lifestyle News"],
      "/automotive": ["Automotive & Energy", null],
      "/real-estate": ["Real Estate & Housing", null],
      "/health": ["Health & Wellness", null],
    });
    expect(loadingText(categoryByKey("sports").name)).toBe("Loading Sports & Recreation news...");
    expect(errorText(categoryByKey("opinion").name)).toBe(
      "Failed to load Opinion & Editorial articles",
    );
  });

  it("hides errors only on the automotive, real estate and health pages", () => {
    expect(CATEGORY_PAGES.filter((c) => !c.showsErrors).map((c) => c.path)).toEqual([
      "/automotive",
      "/real-estate",
      "/health",
    ]);
  });

  it("maps every feed group of the spec to a key, and community to local news", () => {
    expect(FEED_CATEGORIES.map((c) => c.feedName)).toEqual([
      "Local News",
      "National News",
      "World News",
      "Politics / Government",
      "Business & Finance",
      "Technology & Innovation",
      "Sports",
      "Arts & Culture",
      "Opinion / Editorials",
      "Automotive & Energy",
      "Real Estate & Housing",
      "Health & Wellness",
      "Food & Dining",
      "Lifestyle & Fashion",
      "From the Archives",
      "Blog feed",
    ]);
    const community = categoryByPath("/community");
    expect(community && articleCategory(community)).toBe("local-news");
    expect(articleCategory(categoryByKey("sports"))).toBe("sports");
  });

  it("has unique keys and paths", () => {
    expect(new Set(CATEGORIES.map((c) => c.key)).size).toBe(CATEGORIES.length);
    expect(new Set(CATEGORY_PAGES.map((c) => c.path)).size).toBe(CATEGORY_PAGES.length);
  });

  it("redirects /entertainment to /arts-culture", () => {
    expect(legacyRedirect("/entertainment")).toBe("/arts-culture");
    expect(legacyRedirect("/sports")).toBeUndefined();
  });

  it("archives filter: the spec's categories", () => {
    expect(CATEGORIES.filter((c) => c.inArchivesFilter).map((c) => c.label)).toEqual([
      "Local News",
      "Politics",
      "Business",
      "Technology",
      "Sports",
      "Arts & Culture",
      "Opinion",
    ]);
  });
});
