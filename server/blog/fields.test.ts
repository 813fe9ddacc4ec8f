import { describe, expect, it } from "vitest";
import { imageAddress, plainText, publicationDate } from "./fields";

describe("publicationDate", () => {
  it.each<[string, string | null]>([
    // A calendar day is noon UTC: the same day in San Diego.
    ["2025-06-10", "2025-06-10T12:00:00.000Z"],
    [" 2024-02-29 ", "2024-02-29T12:00:00.000Z"],
    ["2025-06-10T14:30:00Z", "2025-06-10T14:30:00.000Z"],
    ["2025-06-10T14:30:00-07:00", "2025-06-10T21:30:00.000Z"],
    ["2025-06-10 21:30:00+00", "2025-06-10T21:30:00.000Z"],
    ["2025-02-30", null],
    ["2025-13-01", null],
    ["June 10, 2025", null],
    ["10/06/2025", null],
    ["", null],
  ])("%j → %j", (value, iso) => {
    expect(publicationDate(value)).toBe(iso);
  });
});

describe("imageAddress", () => {
  it.each<[string | null | undefined, string | null]>([
    ["/images/sample/beach.svg", "/images/sample/beach.svg"],
    ["https://i.pinimg.example/a.jpg", "https://i.pinimg.example/a.jpg"],
    [" http://img.example/a b.png ", "http://img.example/a%20b.png"],
    ["//img.example/a.png", null],
    ["/images/a b.png", null],
    ['/images/"onerror=x', null],
    ["javascript:alert(1)", null],
    ["data:image/png;base64,AAAA", null],
    ["ftp://img.example/a.png", null],
    ["images/a.png", null],
    ["", null],
    [null, null],
    [undefined, null],
  ])("%j → %j", (value, address) => {
    expect(imageAddress(value)).toBe(address);
  });
});

describe("plainText", () => {
  it.each<[string | null | undefined, string]>([
    ["  A  title\n on two lines ", "A title on two lines"],
    ["NUL\u0000 goes", "NUL goes"],
    ["\u0001search\u0002 markers go", "search markers go"],
    ["\u202Etxt.exe", "txt.exe"],
    ["zero\u200Bwidth", "zerowidth"],
    ["lone \uD800 surrogate \uDFFF", "lone \uFFFD surrogate \uFFFD"],
    ["a pair \uD83D\uDE00 stays", "a pair \uD83D\uDE00 stays"],
    ["<script>alert(1)</script>", "<script>alert(1)</script>"],
    [null, ""],
    [undefined, ""],
  ])("%j → %j", (value, text) => {
    expect(plainText(value)).toBe(text);
  });
});
