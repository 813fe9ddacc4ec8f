import { describe, expect, it } from "vitest";
import { sameText, tokenHash } from "./tokens";

describe("sameText", () => {
  it("is true for the same text only", () => {
    expect(sameText("abc.def", "abc.def")).toBe(true);
    expect(sameText("abc.deg", "abc.def")).toBe(false);
    expect(sameText("", "")).toBe(true);
  });

  it("is false for texts of different lengths, without throwing", () => {
    expect(sameText("abc", "abcd")).toBe(false);
    expect(sameText("abcd", "")).toBe(false);
  });

  it("compares bytes, so text that differs only beyond ASCII differs", () => {
    expect(sameText("café", "cafe")).toBe(false);
    expect(sameText("café", "café")).toBe(true);
  });
});

describe("tokenHash", () => {
  it("is the token's sha256 in base64url, never the token", () => {
    // sha256("abc"), from FIPS 180-2's test vectors, in base64url.
    expect(tokenHash("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(tokenHash("abc")).not.toContain("abc");
    expect(tokenHash("abd")).not.toBe(tokenHash("abc"));
  });
});
