import { describe, expect, it } from "vitest";
import { routeCacheKeys } from "./route-keys";

describe("a page's keys from the routes that answered it", () => {
  it("asks each matched route's kind, and skips routes that name none or an unknown one", () => {
    const keys = routeCacheKeys([
      { handle: { cacheKeys: "site" }, params: {} },
      { handle: undefined, params: {} },
      { handle: { structuredData: () => [] }, params: {} },
      { handle: { cacheKeys: "toString" }, params: {} },
      { handle: { cacheKeys: "no-such-kind" }, params: {} },
      {
        handle: { cacheKeys: "article" },
        params: { id: "one" },
        data: { related: [{ id: "two" }], latest: [{ id: "one" }, { id: "three" }] },
      },
    ]);
    expect(keys).toEqual(["site", "article-one", "article-two", "article-three"]);
  });

  it("a section names the category of the stories it lists, from its address's param", () => {
    expect(
      routeCacheKeys([{ handle: { cacheKeys: "category" }, params: { category: "sports" } }]),
    ).toEqual(["category-sports"]);
    expect(routeCacheKeys([{ handle: { cacheKeys: "community" }, params: {} }])).toEqual([
      "category-local-news",
    ]);
    expect(
      routeCacheKeys([{ handle: { cacheKeys: "category" }, params: { category: "nope" } }]),
    ).toEqual([]);
  });

  it("without loader data (a `.data` answer) a route names its own keys only", () => {
    expect(routeCacheKeys([{ handle: { cacheKeys: "home" }, params: {} }])).toEqual(["home"]);
    expect(
      routeCacheKeys([{ handle: { cacheKeys: "blog-post" }, params: { slug: "Balboa Park" } }]),
    ).toEqual(["blog-post-balboa_park"]);
  });
});
