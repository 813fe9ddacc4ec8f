import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeBundles } from "./bundle-size";

/**
 * The client JavaScript budget, on the production build: what a first visit downloads, gzipped.
 * React and React Router alone are about 107 KB of it. The article page's was 115 KB until every
 * page got its ad slots and house ads (+0.6 KB) and stored pictures their <picture> markup and
 * preload (+0.9 KB): 116 KB, measured at 115.8 KB (docs/BENCHMARKS.md).
 */
const KB = 1024;
const BUDGETS: Record<string, number> = {
  "routes/home": 125 * KB,
  "routes/article": 116 * KB,
};

describe.skipIf(!fs.existsSync(path.resolve("build/server/index.js")))("JavaScript budget", () => {
  it.each(Object.entries(BUDGETS))("%s loads at most its budget", async (route, budget) => {
    const bundle = (await routeBundles()).find((b) => b.route === route);
    expect(bundle, `no route ${route} in the build`).toBeDefined();
    expect(bundle?.jsGzipBytes).toBeLessThanOrEqual(budget);
  });

  it("no page loads more than the home page's budget", async () => {
    for (const bundle of await routeBundles()) {
      expect(bundle.jsGzipBytes, bundle.route).toBeLessThanOrEqual(125 * KB);
    }
  });
});

it("says plainly when there is no build to measure", () => {
  if (!fs.existsSync(path.resolve("build/server/index.js"))) {
    console.warn(
      "No production build: the JavaScript budget was NOT checked (npm test builds first).",
    );
  }
});
