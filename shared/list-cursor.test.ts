import { describe, expect, it } from "vitest";
import { cursorDate, cursorId, parseCursor, setCursor, type ListCursor } from "./list-cursor";

describe("parseCursor", () => {
  it.each<[string, ListCursor | undefined]>([
    [
      "after=2026-11-01T12:00:00.000Z~a-1",
      { direction: "after", date: "2026-11-01T12:00:00.000Z", id: "a-1" },
    ],
    [
      "before=2026-11-01T12:00:00Z~b~2",
      { direction: "before", date: "2026-11-01T12:00:00.000Z", id: "b~2" },
    ],
    ["after=yesterday~a-1", undefined],
    ["after=2026-11-01T12:00:00.000Z~", undefined],
    ["after=~a-1", undefined],
    ["after=2026-11-01", undefined],
    // What the database would refuse: NUL in the id, years it cannot hold.
    ["after=2026-11-01T12:00:00.000Z~a%00b", undefined],
    ["after=2026-11-01T12:00:00.000Z~a%0Ab", undefined],
    ["after=-200000-01-01T00:00:00.000Z~a-1", undefined],
    ["after=%2B275000-01-01T00:00:00.000Z~a-1", undefined],
    ["page=2", undefined],
  ])("%s", (query, expected) => {
    expect(parseCursor(new URLSearchParams(query))).toEqual(expected);
  });

  it("reads back what setCursor wrote", () => {
    const cursor: ListCursor = {
      direction: "after",
      date: "2026-01-02T03:04:05.678Z",
      id: "x y&z",
    };
    const query = new URLSearchParams("year=2026");
    setCursor(query, cursor);
    expect(parseCursor(new URLSearchParams(query.toString()))).toEqual(cursor);
  });
});

describe("cursorDate and cursorId", () => {
  it("take dates of years 1 to 9999 only", () => {
    expect(cursorDate("0001-01-01T00:00:00.000Z")?.toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(cursorDate("9999-12-31T23:59:59.999Z")?.toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(cursorDate("1915-03-04")?.toISOString()).toBe("1915-03-04T00:00:00.000Z");
    for (const text of ["-000001-12-31T23:59:59Z", "+010000-01-01T00:00:00Z", "soon", ""]) {
      expect(cursorDate(text), text).toBeNull();
    }
  });

  it("take ids without control characters, up to 300 characters", () => {
    expect(cursorId("harbor-vote-2151f94f")).toBe("harbor-vote-2151f94f");
    expect(cursorId("")).toBe("");
    expect(cursorId("x".repeat(300))).toHaveLength(300);
    for (const text of ["a\u0000b", "a\tb", "a\u007fb", "x".repeat(301)]) {
      expect(cursorId(text), JSON.stringify(text)).toBeNull();
    }
  });
});
