import { describe, expect, it } from "vitest";
import { parseCursor, setCursor, type ListCursor } from "./list-cursor";

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
