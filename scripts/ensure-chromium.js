// Makes sure a Chromium is there for the browser tests: installs Debian's headless shell (what Playwright drives by
// default, and faster than the whole browser) when it can, otherwise uses a Chromium already there, otherwise says
// exactly what to install. The e2e suite never silently skips.
import { hasHeadlessShell, testBrowserPath } from "./chromium-path.js";
import { installDebianPackage } from "./system-package.js";

if (process.env.CHROMIUM_PATH || hasHeadlessShell()) {
  if (testBrowserPath()) process.exit(0);
}

if (!process.env.CHROMIUM_PATH) {
  installDebianPackage(
    "chromium-headless-shell",
    "the browser tests",
    "Installing it failed; looking for a Chromium already installed.",
  );
}

const found = testBrowserPath();
if (found) {
  if (!hasHeadlessShell() && !process.env.CHROMIUM_PATH) {
    console.log(`Browser tests run in ${found} (chromium-headless-shell would be faster).`);
  }
  process.exit(0);
}

console.error(
  "The browser tests need Chromium and none was found.\n" +
    "Install it (Debian/Ubuntu: `sudo apt-get install chromium-headless-shell`, or `chromium`) or set CHROMIUM_PATH\n" +
    "to a Chromium or Chrome binary.",
);
process.exit(1);
