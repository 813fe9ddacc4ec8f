// Makes sure a Chromium is there for the browser tests: installs Debian's package when it can,
// otherwise says exactly what to install. The e2e suite never silently skips.
import { execFileSync } from "node:child_process";
import { chromiumPath } from "./chromium-path.js";

if (chromiumPath()) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
let hasApt = false;
try {
  execFileSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" });
  hasApt = true;
} catch {
  hasApt = false;
}

if (isRoot && hasApt) {
  console.log("No Chromium found: installing Debian's chromium package for the browser tests...");
  execFileSync(
    "sh",
    ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"],
    {
      stdio: "inherit",
    },
  );
  if (chromiumPath()) process.exit(0);
}

console.error(
  "The browser tests need Chromium and none was found.\n" +
    "Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.",
);
process.exit(1);
