import { describe, expect, it } from "vitest";
import { isUpstreamDeprecation, UPSTREAM_DEPRECATION } from "./build-output.js";

describe("the build's output", () => {
  it("drops React Router's envFile deprecation line, coloured or not", () => {
    expect(isUpstreamDeprecation(UPSTREAM_DEPRECATION)).toBe(true);
    expect(isUpstreamDeprecation(`\u001b[33m${UPSTREAM_DEPRECATION}\u001b[39m`)).toBe(true);
  });

  it("keeps every other line, warnings included", () => {
    for (const line of [
      "✓ built in 800ms",
      "The `envDir` option is deprecated.",
      `Warning: ${UPSTREAM_DEPRECATION}`,
      "(!) Some chunks are larger than 500 kB after minification.",
      "",
    ]) {
      expect(isUpstreamDeprecation(line)).toBe(false);
    }
  });
});
