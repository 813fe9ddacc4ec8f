import { describe, expect, it } from "vitest";
import { isShowingAll, onlyToggleChanged, toggledSearch } from "./StoryList";

describe("isShowingAll", () => {
  it.each([
    ["", false],
    ["?all=1", true],
    ["?all=0", false],
    ["?all=true", false],
    ["?page=2&all=1", true],
  ])("%j -> %s", (search, expected) => {
    expect(isShowingAll(search)).toBe(expected);
  });
});

describe("toggledSearch", () => {
  it.each([
    ["", true, "?all=1"],
    ["?all=1", false, ""],
    ["?utm_source=x", true, "?utm_source=x&all=1"],
    ["?utm_source=x&all=1", false, "?utm_source=x"],
  ])("%j, expand %s -> %j", (search, expand, expected) => {
    expect(toggledSearch(search, expand)).toBe(expected);
  });
});

describe("onlyToggleChanged", () => {
  const url = (s: string) => new URL(s, "http://localhost");
  it.each([
    ["/local-news", "/local-news?all=1", true],
    ["/local-news?all=1", "/local-news#local-news-story-toggle", true],
    ["/local-news?x=1", "/local-news?x=1&all=1", true],
    ["/local-news", "/business?all=1", false],
    ["/local-news?x=1", "/local-news?x=2&all=1", false],
  ])("%s -> %s: %s", (from, to, expected) => {
    expect(onlyToggleChanged(url(from), url(to))).toBe(expected);
  });
});
