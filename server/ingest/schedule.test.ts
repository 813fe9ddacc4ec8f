import { describe, expect, it } from "vitest";
import { nextAttemptAfterSuccess } from "./schedule";

const now = new Date("2026-11-22T12:00:00Z");
const minutes = (date: Date) => (date.getTime() - now.getTime()) / 60_000;

describe("feed schedule", () => {
  it("honours the feed's ttl and the answer's max-age after success", () => {
    expect(minutes(nextAttemptAfterSuccess(now, { ttlMinutes: null, maxAgeSeconds: null }))).toBe(
      0,
    );
    expect(minutes(nextAttemptAfterSuccess(now, { ttlMinutes: 60, maxAgeSeconds: 600 }))).toBe(60);
    expect(minutes(nextAttemptAfterSuccess(now, { ttlMinutes: 5, maxAgeSeconds: 1800 }))).toBe(30);
    expect(minutes(nextAttemptAfterSuccess(now, { ttlMinutes: 10_080, maxAgeSeconds: null }))).toBe(
      360,
    );
  });
});
