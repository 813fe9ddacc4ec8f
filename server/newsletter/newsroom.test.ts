import { describe, expect, it } from "vitest";
import { subscribersCsv } from "./newsroom";

/** The subscribers' CSV file: cells a spreadsheet never reads as formulas (OWASP's CSV injection). */
describe("the subscribers' CSV file", () => {
  it("has a header and a CRLF line per subscriber", () => {
    const at = new Date("2026-11-26T12:00:00Z");
    const csv = subscribersCsv([
      {
        email: "-2+3@example.org",
        status: "confirmed",
        suppressed: null,
        createdAt: at,
        confirmedAt: at,
        unsubscribedAt: null,
      },
      {
        email: "left@example.org",
        status: "unsubscribed",
        suppressed: "unsubscribed",
        createdAt: at,
        confirmedAt: null,
        unsubscribedAt: at,
      },
    ]);
    expect(csv.split("\r\n")).toEqual([
      '"email","status","suppressed","signed_up","confirmed","unsubscribed"',
      `"'-2+3@example.org","confirmed","","2026-11-26T12:00:00.000Z","2026-11-26T12:00:00.000Z",""`,
      `"left@example.org","unsubscribed","unsubscribed","2026-11-26T12:00:00.000Z","","2026-11-26T12:00:00.000Z"`,
      "",
    ]);
  });
});
