import { describe, expect, it } from "vitest";
import { wrapIndex } from "./FeaturedSlider";

describe("wrapIndex", () => {
  it("wraps around at both ends", () => {
    expect(wrapIndex(-1, 6)).toBe(5);
    expect(wrapIndex(6, 6)).toBe(0);
    expect(wrapIndex(3, 6)).toBe(3);
    expect(wrapIndex(-7, 6)).toBe(5);
    expect(wrapIndex(0, 0)).toBe(0);
  });
});
