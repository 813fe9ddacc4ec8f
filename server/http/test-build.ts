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
