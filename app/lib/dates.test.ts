import { describe, expect, it } from "vitest";
import { formatLongDate, sanDiegoYear } from "./dates";

describe("dates in San Diego's time zone", () => {
  it("names the year San Diego is in, not UTC's", () => {
    // 8 p.m. on New Year's Eve in San Diego is 4 a.m. on 1 January in UTC.
    expect(sanDiegoYear(new Date("2027-01-01T04:00:00Z"))).toBe(2026);
    // Midnight in San Diego.
    expect(sanDiegoYear(new Date("2027-01-01T08:00:00Z"))).toBe(2027);
  });

  it("names the right year asked in any order around San Diego's midnight, the same hour twice too", () => {
    const asked = [
      ["2027-01-01T07:00:00Z", 2026],
      ["2027-01-01T07:59:59Z", 2026],
      ["2027-01-01T08:00:00Z", 2027],
      ["2027-01-01T08:59:59Z", 2027],
      ["2027-01-01T07:30:00Z", 2026],
      ["2027-01-01T12:00:00Z", 2027],
      ["2026-12-31T23:00:00Z", 2026],
      // Summer time: midnight on 1 July is 07:00 in UTC; the year does not turn.
      ["2027-07-01T06:59:00Z", 2027],
      ["2027-07-01T07:00:00Z", 2027],
    ] as const;
    for (const [instant, year] of asked)
      expect(sanDiegoYear(new Date(instant)), instant).toBe(year);
  });

  it("formats the day San Diego is in", () => {
    expect(formatLongDate("2027-01-01T04:00:00Z")).toBe("December 31, 2026");
    expect(formatLongDate(new Date("2026-11-22T18:00:00Z"))).toBe("November 22, 2026");
  });

  it("gives a date the same text every time, however many dates came between", () => {
    const first = formatLongDate("2026-03-08T09:30:00Z");
    for (let day = 0; day < 5000; day++)
      formatLongDate(new Date(Date.UTC(2000, 0, 1 + day)).toISOString());
    expect(first).toBe("March 8, 2026");
    expect(formatLongDate("2026-03-08T09:30:00Z")).toBe(first);
    expect(formatLongDate("2026-03-08T07:30:00Z")).toBe("March 7, 2026");
    expect(() => formatLongDate("not a date")).toThrow(RangeError);
  });
});
