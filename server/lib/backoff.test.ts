import { describe, expect, it } from "vitest";
import { backoffMs, nextAttemptAfterFailure } from "./backoff";

const now = new Date("2026-11-22T12:00:00Z");
const minutes = (date: Date) => (date.getTime() - now.getTime()) / 60_000;

describe("backoff", () => {
  it("backs off from 15 minutes, doubling, capped at 6 hours", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((n) => backoffMs(n) / 60_000)).toEqual([
      15, 30, 60, 120, 240, 360, 360, 360,
    ]);
  });

  it("honours Retry-After as a floor", () => {
    expect(minutes(nextAttemptAfterFailure(now, 1, null))).toBe(15);
    expect(minutes(nextAttemptAfterFailure(now, 1, 3600))).toBe(60);
    expect(minutes(nextAttemptAfterFailure(now, 3, 60))).toBe(60);
  });
});
