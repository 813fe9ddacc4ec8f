import { describe, expect, it } from "vitest";
import {
  FASTEST_HUMAN_MS,
  formTokenDoubt,
  issueFormToken,
  linkCount,
  OLDEST_FORM_MS,
} from "./form-token";

const SECRET = Buffer.alloc(32, 7);
const OTHER = Buffer.alloc(32, 8);
const SHOWN = Date.UTC(2026, 10, 26, 12);
const token = issueFormToken(SECRET, SHOWN);

describe("formTokenDoubt", () => {
  it.each([
    ["sent a minute later", token, SHOWN + 60_000, null],
    ["sent just late enough", token, SHOWN + FASTEST_HUMAN_MS, null],
    ["sent within the day", token, SHOWN + OLDEST_FORM_MS, null],
    ["sent at once", token, SHOWN + 400, "sent 400 ms after the form was shown"],
    [
      "sent the next day",
      token,
      SHOWN + OLDEST_FORM_MS + 1,
      "sent more than a day after the form was shown",
    ],
    ["no token", undefined, SHOWN + 60_000, "no valid form token"],
    ["an empty token", "", SHOWN + 60_000, "no valid form token"],
    [
      "another time, same signature",
      token.replace(/^\d+/, String(SHOWN - 60_000)),
      SHOWN + 60_000,
      "no valid form token",
    ],
    [
      "signed with another secret",
      issueFormToken(OTHER, SHOWN),
      SHOWN + 60_000,
      "no valid form token",
    ],
    ["a signature cut short", token.slice(0, -1), SHOWN + 60_000, "no valid form token"],
    ["junk", "1.<script>", SHOWN + 60_000, "no valid form token"],
  ])("%s", (_what, given, now, doubt) => {
    expect(formTokenDoubt(SECRET, given, now)).toBe(doubt);
  });
});

describe("linkCount", () => {
  it.each([
    ["A water main broke on Adams Avenue.", 0],
    ["See https://example.org/a and http://example.org/b", 2],
    ["www.one.example www.two.example HTTPS://THREE.example", 3],
    ["mailto:desk@example.org is not a link to count", 0],
  ])("%s", (text, count) => {
    expect(linkCount(text)).toBe(count);
  });
});
