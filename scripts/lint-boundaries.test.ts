import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The folder boundaries of eslint.config.js (`npm run lint`), checked on imports written for the
 * test: each forbidden one is reported, and the same import from a folder that may make it is not.
 */
const eslint = new ESLint();

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "boundaries/dependencies")
    .map((m) => m.message);
}

describe("the lint rule on folder boundaries", () => {
  it.each([
    ["server/ from app/", "server/news/probe.ts", "../../app/lib/nav", "server/ must not import"],
    [
      "a server test from app/",
      "server/news/probe.test.ts",
      "../../app/lib/nav",
      "server/ must not import",
    ],
    ["shared/ from app/", "shared/probe.ts", "../app/lib/nav", "shared/ must import neither"],
    ["shared/ from server/", "shared/probe.ts", "../server/logger", "shared/ must import neither"],
    [
      "resilience/ from bench/",
      "resilience/probe.ts",
      "../bench/feed-servers",
      "resilience/ must not import",
    ],
  ])("fails an import into %s", async (_name, file, from, message) => {
    const errors = await boundaryErrors(file, `export * from "${from}";\n`);
    expect(errors).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    ["app/ from server/", "app/routes/probe.ts", "../../server/logger"],
    ["server/ from shared/", "server/news/probe.ts", "../../shared/categories"],
    ["bench/ from server/", "bench/probe.ts", "../server/test-support/report"],
    ["resilience/ from server/", "resilience/probe.ts", "../server/test-support/report"],
  ])("lets %s pass", async (_name, file, from) => {
    expect(await boundaryErrors(file, `export * from "${from}";\n`)).toEqual([]);
  });
});
