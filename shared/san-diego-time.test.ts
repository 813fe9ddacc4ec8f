import { describe, expect, it } from "vitest";
import {
  dateToSanDiegoLocal,
  sanDiegoDate,
  sanDiegoFormat,
  sanDiegoLocalToDate,
  sanDiegoMinutes,
} from "./san-diego-time";

describe("San Diego's wall clock", () => {
  it("reads a winter time as UTC−8 and a summer time as UTC−7", () => {
    expect(sanDiegoLocalToDate("2026-11-26T15:30")?.toISOString()).toBe("2026-11-26T23:30:00.000Z");
    expect(sanDiegoLocalToDate("2026-07-04T21:00")?.toISOString()).toBe("2026-07-05T04:00:00.000Z");
  });

  it("settles on a side around the changes of clock", () => {
    // 2026-03-08 02:30 does not exist in San Diego: the hour after.
    expect(sanDiegoLocalToDate("2026-03-08T02:30")?.toISOString()).toBe("2026-03-08T10:30:00.000Z");
    expect(sanDiegoLocalToDate("2026-03-08T03:30")?.toISOString()).toBe("2026-03-08T10:30:00.000Z");
    expect(sanDiegoLocalToDate("2026-11-01T00:30")?.toISOString()).toBe("2026-11-01T07:30:00.000Z");
    expect(sanDiegoLocalToDate("2026-11-01T03:00")?.toISOString()).toBe("2026-11-01T11:00:00.000Z");
  });

  it("refuses what is not a date and time", () => {
    for (const bad of [
      "",
      "tomorrow",
      "2026-02-31T10:00",
      "2026-13-01T10:00",
      "2026-01-01T24:00",
    ]) {
      expect(sanDiegoLocalToDate(bad), bad).toBeNull();
    }
  });

  it("writes an instant back as the field shows it", () => {
    expect(dateToSanDiegoLocal(new Date("2026-11-26T23:30:00Z"))).toBe("2026-11-26T15:30");
    expect(dateToSanDiegoLocal(new Date("2026-07-05T04:00:00Z"))).toBe("2026-07-04T21:00");
    const now = new Date("2026-05-01T12:34:00Z");
    expect(sanDiegoLocalToDate(dateToSanDiegoLocal(now))?.getTime()).toBe(now.getTime());
  });
});

describe("San Diego's date, time of day and formats", () => {
  it.each([
    // UTC instant, San Diego's date, minutes since its midnight
    ["2026-12-01T07:59:00Z", "2026-11-30", 23 * 60 + 59],
    ["2026-12-01T08:00:00Z", "2026-12-01", 0],
    ["2026-07-05T06:59:00Z", "2026-07-04", 23 * 60 + 59],
    ["2026-07-05T07:00:00Z", "2026-07-05", 0],
    ["2026-03-08T10:30:00Z", "2026-03-08", 3 * 60 + 30],
    ["2027-01-01T07:30:00Z", "2026-12-31", 23 * 60 + 30],
  ])("%s is %s, minute %i", (instant, date, minutes) => {
    expect(sanDiegoDate(new Date(instant))).toBe(date);
    expect(sanDiegoMinutes(new Date(instant))).toBe(minutes);
  });

  it("formats on San Diego's clock in US English", () => {
    const newYearsEve = new Date("2027-01-01T04:00:00Z");
    expect(
      sanDiegoFormat({ year: "numeric", month: "long", day: "numeric" }).format(newYearsEve),
    ).toBe("December 31, 2026");
    expect(sanDiegoFormat({ hour: "numeric", minute: "2-digit" }).format(newYearsEve)).toBe(
      "8:00 PM",
    );
    // The zone cannot be asked away.
    expect(sanDiegoFormat({ timeZone: "UTC", day: "numeric" }).format(newYearsEve)).toBe("31");
  });
});
