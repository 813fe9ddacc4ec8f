import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * For tests that need the production build: builds the site (`npm run build`) in `root` when it
 * has no build yet, and fails the test when the build fails. `npm test` builds before the tests.
 */
export function ensureBuilt(root = "."): void {
  if (fs.existsSync(path.join(root, "build/server/index.js"))) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`The site could not be built for the test in ${root}`);
}

/**
 * For tests that check the build as it is (budgets, fonts): fails them when there is none, since a
 * skipped check passes unseen. `npm test` builds before Vitest; run alone, Vitest needs a build.
 */
export function requireBuild(...files: string[]): void {
  const missing = files.filter((file) => !fs.existsSync(path.resolve(file)));
  if (missing.length > 0) {
    throw new Error(
      `No production build to check (${missing.join(", ")} missing): run \`npm run build\` first.`,
    );
  }
}
