import { describe, expect, it } from "vitest";
import { dateToSanDiegoLocal, sanDiegoLocalToDate } from "./san-diego-time";

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
