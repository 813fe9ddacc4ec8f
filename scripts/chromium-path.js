import fs from "node:fs";
import { onPath } from "./system-package.js";

const BROWSERS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
/** Chromium's headless shell: what Playwright drives by default, lighter than the whole browser. */
const HEADLESS_SHELL = "chromium-headless-shell";

/** CHROMIUM_PATH when it names a file. */
function fromEnv() {
  const named = process.env.CHROMIUM_PATH;
  return named && fs.existsSync(named) ? named : undefined;
}

/** A whole Chromium (Lighthouse needs one): CHROMIUM_PATH, else the first browser found on PATH. */
export function chromiumPath() {
  const named = fromEnv();
  if (named) return named;
  for (const name of BROWSERS) {
    const found = onPath(name);
    if (found) return found;
  }
  return undefined;
}

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, else Debian's headless shell when it is on PATH (the same
 * engine without the browser's UI: the suite runs about a fifth faster), else a whole Chromium.
 */
export function testBrowserPath() {
  return fromEnv() ?? onPath(HEADLESS_SHELL) ?? chromiumPath();
}

/** Whether the headless shell is on PATH. */
export function hasHeadlessShell() {
  return onPath(HEADLESS_SHELL) !== undefined;
}
