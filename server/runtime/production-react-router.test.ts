import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Which files of React Router a fresh Node process loads, with or without our resolution hook. */
function reactRouterFiles(withHook: boolean): string[] {
  // A second hook, registered after ours so it runs first, reports where each import ends up.
  const report = `export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (resolved.url.includes("/react-router/dist/")) console.log(resolved.url);
    return resolved;
  }`;
  const script = [
    `import { register } from "node:module";`,
    withHook
      ? `register(${JSON.stringify(path.resolve("server/runtime/production-react-router.js"))}, import.meta.url);`
      : "",
    `register("data:text/javascript,${encodeURIComponent(report)}", import.meta.url);`,
    `await import("react-router");`,
    `await import("@react-router/node");`,
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: path.resolve("."),
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split("\n").filter(Boolean);
}

describe("the production resolution hook", () => {
  it("loads every file of React Router from its production build", () => {
    const files = reactRouterFiles(true);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((url) => url.includes("/react-router/dist/production/"))).toBe(true);
  });

  it("is needed: without it the package resolves to its development build", () => {
    expect(reactRouterFiles(false).some((url) => url.includes("/dist/development/"))).toBe(true);
  });
});
