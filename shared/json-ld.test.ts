import { describe, expect, it } from "vitest";
import { jsonLdText } from "./json-ld";

describe("jsonLdText", () => {
  it("cannot close the script element, and parses back to the same data", () => {
    const data = { headline: "</script><script>alert(1)</script> & <!-- \u2028" };
    const text = jsonLdText(data);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(data);
  });
});
