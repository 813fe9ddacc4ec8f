import { describe, expect, it } from "vitest";
import { newsletterSignup } from "./signup-form";

describe("newsletterSignup", () => {
  it("refuses an address that could spell a spreadsheet formula's function call", () => {
    for (const email of ["=cmd|' /C calc'!A0@example.com", "=SUM(1)@example.com"]) {
      expect(newsletterSignup.safeParse({ email }).success).toBe(false);
    }
    expect(newsletterSignup.safeParse({ email: "-1@example.com" }).success).toBe(true);
  });
});
