import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  editorBundle,
  isNewsroomRoute,
  JS_BUDGETS,
  routeBundles,
  type EditorBundle,
  type RouteBundle,
} from "./bundle-size";
import { requireBuild } from "./test-build";

requireBuild("build/server/index.js", "build/client/assets");

describe("JavaScript budget", () => {
  // Measured once for every test: gzipping each page's scripts at level 9 takes seconds.
  let routes: Promise<RouteBundle[]> | undefined;
  let editor: Promise<EditorBundle | null> | undefined;
  const measured = () => (routes ??= routeBundles());
  const editorScripts = async () => new Set((await (editor ??= editorBundle()))?.scripts);

  it.each(Object.entries(JS_BUDGETS))("%s loads at most its budget", async (route, budget) => {
    const bundle = (await measured()).find((b) => b.route === route);
    expect(bundle, `no route ${route} in the build`).toBeDefined();
    expect(bundle?.jsGzipBytes).toBeLessThanOrEqual(budget);
  });

  it("no page loads more than the home page's budget", async () => {
    for (const bundle of await measured()) {
      expect(bundle.jsGzipBytes, bundle.route).toBeLessThanOrEqual(JS_BUDGETS["routes/home"]);
    }
  });

  it("no reader page loads Tiptap or ProseMirror code", async () => {
    const libraries = await editorScripts();
    for (const bundle of await measured()) {
      if (isNewsroomRoute(bundle.route)) continue;
      const found = bundle.scripts.filter((url) => libraries.has(url));
      expect(found, `${bundle.route} loads the rich editor's libraries`).toEqual([]);
    }
  });

  it("no page loads the rich editor on its first visit: its page fetches it once hydrated", async () => {
    const libraries = await editorScripts();
    for (const bundle of await measured()) {
      const found = bundle.scripts.filter((url) => libraries.has(url));
      expect(found, `${bundle.route} loads the rich editor on its first visit`).toEqual([]);
    }
  });

  it("finds the editor's chunk by its libraries when a page of the build uses it", async () => {
    const chunk = fs
      .readdirSync(path.resolve("build/client/assets"))
      .find((name) => /^RichBodyEditor-[\w-]+\.js$/.test(name));
    const libraries = await editorScripts();
    // Without a page that imports BodyField, no script may hold the libraries either.
    if (chunk) expect([...libraries]).toContain(`/assets/${chunk}`);
    else expect([...libraries]).toEqual([]);
  });

  it("counts the stylesheet every page loads", async () => {
    for (const bundle of await measured()) {
      expect(bundle.cssGzipBytes, bundle.route).toBeGreaterThan(1024);
    }
  });
});
