import { describe, expect, it } from "vitest";
import { blockingRule, parsePattern, patternMatches, type BlockRule } from "./block-rules";

const pattern = (input: string) => {
  const parsed = parsePattern(input);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed.pattern;
};

describe("block rule patterns", () => {
  it.each([
    // pattern, text, matches
    ["casino", "Casino opens downtown", true],
    ["casino", "New casinos open", false],
    ["casino*", "New casinos open", true],
    ["*ball", "Football season", true],
    ["*ball", "Ballot measure", false],
    ["sponsored content", "SPONSORED   Content: buy now", true],
    ["sponsored content", "Sponsored: content", false],
    ["press * release", "Press and release", true],
    ["/sponsored/", "https://example.org/sponsored/deal", true],
    ["/sponsored/", "https://example.org/sponsored-deal", false],
    ["example.org/promo", "https://www.example.org/promo/1", true],
    ["war", "An award for the mayor", false],
    ["war", "War, again", true],
    ["café", "Le Café du Coin", true],
    ["co*", "", false],
  ])("%j in %j: %s", (input, text, expected) => {
    expect(patternMatches(pattern(input), text)).toBe(expected);
  });

  it("refuses patterns with nothing to match, or too long", () => {
    expect(parsePattern("  *  ")).toEqual({
      error: "Give at least two letters or digits to match.",
    });
    expect(parsePattern("a")).toHaveProperty("error");
    expect(parsePattern("x".repeat(201))).toHaveProperty("error");
    expect(parsePattern("  Many***  Stars ")).toEqual({ pattern: "many* stars" });
  });

  it("takes time in proportion to text × pattern, whatever the pattern (no backtracking)", () => {
    // The shape that makes a backtracking regex engine take exponential or high polynomial time.
    const hostile = pattern(`${"a*".repeat(90)}b`);
    const text = "a".repeat(3000);
    const started = performance.now();
    expect(patternMatches(hostile, text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("applies a rule to its feed only, or to every feed, on the field it names", () => {
    const rules: BlockRule[] = [
      { id: 1, feedId: 7, field: "author", pattern: "wire service" },
      { id: 2, feedId: null, field: "link", pattern: "/ads/" },
      { id: 3, feedId: null, field: "any", pattern: "horoscope*" },
    ];
    const item = { title: "Budget vote", author: "Wire Service", link: "https://x.org/news/1" };
    expect(blockingRule(rules, 7, item)?.id).toBe(1);
    expect(blockingRule(rules, 8, item)).toBeUndefined();
    expect(blockingRule(rules, 8, { ...item, link: "https://x.org/ads/1" })?.id).toBe(2);
    expect(blockingRule(rules, 8, { ...item, title: "Horoscopes for today" })?.id).toBe(3);
    expect(blockingRule(rules, 8, { ...item, title: "/ads/ in a headline" })).toBeUndefined();
  });
});
