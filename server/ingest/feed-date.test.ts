import { describe, expect, it } from "vitest";
import { parseFeedDate } from "./feed-date";

const NOW = new Date("2026-01-01T00:00:00Z");

describe("parseFeedDate", () => {
  it.each([
    ["RFC 822 GMT", "Thu, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21.000Z"],
    ["RFC 822 numeric zone", "Tue, 10 Jun 2025 08:30:00 -0700", "2025-06-10T15:30:00.000Z"],
    ["named zone PDT", "Tue, 05 Apr 2022 14:42:18 PDT", "2022-04-05T21:42:18.000Z"],
    ["named zone EST", "07 Nov 2015 12:00:00 EST", "2015-11-07T17:00:00.000Z"],
    ["UT", "Mon, 02 Jun 2025 10:00:00 UT", "2025-06-02T10:00:00.000Z"],
    ["Z", "Tue, 15 Nov 2022 20:15:04 Z", "2022-11-15T20:15:04.000Z"],
    ["military zone read as UTC", "Mon, 02 Jun 2025 10:00:00 A", "2025-06-02T10:00:00.000Z"],
    ["no seconds", "Tue, 05 Apr 2022 06:27 EDT", "2022-04-05T10:27:00.000Z"],
    ["no day name", "05 Apr 2022 06:27:00 +0000", "2022-04-05T06:27:00.000Z"],
    ["single-digit day", "Wed, 6 Apr 2022 21:07:47 +0000", "2022-04-06T21:07:47.000Z"],
    ["two-digit year (20xx)", "Thu, 07 Dec 17 10:00:29 -0800", "2017-12-07T18:00:29.000Z"],
    ["two-digit year (19xx)", "Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37.000Z"],
    ["full month name", "Sun, 12 August 2012 10:00:00 EST", "2012-08-12T15:00:00.000Z"],
    ["double space before zone", "Wed, 5 Nov 2025 13:52:10  EST", "2025-11-05T18:52:10.000Z"],
    ["no zone", "Mon, 02 Jun 2025 10:00:00", "2025-06-02T10:00:00.000Z"],
    ["zone with colon", "Mon, 1 Jan 2024 10:00 +01:00", "2024-01-01T09:00:00.000Z"],
    ["asctime", "Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37.000Z"],
    ["month first, 12-hour clock", "Sat, Dec 16 2023 02:02:33 PM", "2023-12-16T14:02:33.000Z"],
    ["month first with comma", "Dec 16, 2023", "2023-12-16T00:00:00.000Z"],
    ["Portuguese names", "Seg, 24 Set 2018 19:42:40 -0300", "2018-09-24T22:42:40.000Z"],
    ["Italian names", "mer, 16 nov 2022 00:38:15 +0100", "2022-11-15T23:38:15.000Z"],
    ["ISO with zone", "2013-02-05T09:02:00.000-08:00", "2013-02-05T17:02:00.000Z"],
    ["ISO UTC", "2003-12-31T10:14:55Z", "2003-12-31T10:14:55.000Z"],
    ["ISO without zone", "2003-12-31T10:14:55", "2003-12-31T10:14:55.000Z"],
    ["ISO without seconds", "2003-12-31T10:14Z", "2003-12-31T10:14:00.000Z"],
    ["ISO fraction", "2003-12-31T10:14:55.123456+05:30", "2003-12-31T04:44:55.123Z"],
    ["ISO basic format", "20031231T101455Z", "2003-12-31T10:14:55.000Z"],
    ["date only", "2003-12-31", "2003-12-31T00:00:00.000Z"],
    ["year and month", "2003-12", "2003-12-01T00:00:00.000Z"],
    ["slashes", "2020/1/10 14:33:00", "2020-01-10T14:33:00.000Z"],
    ["surrounding whitespace", "  \n 2003-12-31T10:14:55Z \t", "2003-12-31T10:14:55.000Z"],
  ])("%s: %s", (_name, input, expected) => {
    expect(parseFeedDate(input, NOW)?.toISOString()).toBe(expected);
  });

  it.each([
    ["empty", ""],
    ["garbage", "yesterday"],
    ["impossible day", "Tue, 31 Apr 2022 10:00:00 GMT"],
    ["impossible month", "2022-13-01"],
    ["impossible hour", "Tue, 05 Apr 2022 25:00:00 GMT"],
    ["unknown month", "05 Foo 2022 10:00:00 GMT"],
    ["a bare number", "1649190000"],
    ["more than a day in the future", "2026-01-02T00:00:01Z"],
  ])("null for %s", (_name, input) => {
    expect(parseFeedDate(input, NOW)).toBeNull();
  });

  it("accepts up to 24 hours ahead (clock skew, zones)", () => {
    expect(parseFeedDate("2026-01-02T00:00:00Z", NOW)?.toISOString()).toBe(
      "2026-01-02T00:00:00.000Z",
    );
  });
});
