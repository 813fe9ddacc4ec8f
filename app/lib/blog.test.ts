import { describe, expect, it } from "vitest";
import { pageNumber, pinterestLink, splitTags } from "./blog";

describe("splitTags", () => {
  it.each<[string | null | undefined, string[]]>([
    ["tide pools, La Jolla, Point Loma", ["tide pools", "La Jolla", "Point Loma"]],
    ["beaches, , water quality ,  surf ,", ["beaches", "water quality", "surf"]],
    ["  one  ", ["one"]],
    ["a,b,,c", ["a", "b", "c"]],
    ["San Diego, CA", ["San Diego", "CA"]],
    [" , ,, ", []],
    ["", []],
    [null, []],
    [undefined, []],
  ])("%j → %j", (keywords, tags) => {
    expect(splitTags(keywords)).toEqual(tags);
  });
});

describe("pinterestLink", () => {
  it.each<[string | null, string | null]>([
    [
      "https://i.pinimg.com/originals/ab/cd/beach.jpg",
      "https://i.pinimg.com/originals/ab/cd/beach.jpg",
    ],
    ["http://images.example.org/a.png", "http://images.example.org/a.png"],
    [" https://images.example.org/a b.png ", "https://images.example.org/a%20b.png"],
    ["/images/sample/beach.svg", null],
    ["//images.example.org/a.png", null],
    ["javascript:alert(1)", null],
    ["data:image/png;base64,AAAA", null],
    ["https://", null],
    ["", null],
    [null, null],
  ])("%j → %j", (image, link) => {
    expect(pinterestLink(image)).toBe(link);
  });
});

describe("pageNumber", () => {
  it.each<[string | null, number | null]>([
    [null, 1],
    ["1", 1],
    ["2", 2],
    ["99", 99],
    ["0", null],
    ["-1", null],
    ["01", null],
    ["1.5", null],
    ["two", null],
    ["", null],
    [" 2", null],
    ["1e3", null],
    ["9999999", null],
  ])("%j → %j", (value, page) => {
    expect(pageNumber(value)).toBe(page);
  });
});
