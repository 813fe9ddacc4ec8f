import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JS_BUDGETS, routeBundles } from "./bundle-size";

describe.skipIf(!fs.existsSync(path.resolve("build/server/index.js")))("JavaScript budget", () => {
  it.each(Object.entries(JS_BUDGETS))("%s loads at most its budget", async (route, budget) => {
    const bundle = (await routeBundles()).find((b) => b.route === route);
    expect(bundle, `no route ${route} in the build`).toBeDefined();
    expect(bundle?.jsGzipBytes).toBeLessThanOrEqual(budget);
  });

  it("no page loads more than the home page's budget", async () => {
    for (const bundle of await routeBundles()) {
      expect(bundle.jsGzipBytes, bundle.route).toBeLessThanOrEqual(JS_BUDGETS["routes/home"]);
    }
  });

  it("counts the stylesheet every page loads", async () => {
    for (const bundle of await routeBundles()) {
      expect(bundle.cssGzipBytes, bundle.route).toBeGreaterThan(1024);
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
