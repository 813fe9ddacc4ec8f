import { defineConfig, devices } from "@playwright/test";
import { testBrowserPath } from "./scripts/chromium-path.js";

const PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * Recording a trace of every test, kept only for the failed ones, took a quarter of the browser
 * tests' time (reader and category specs: 95 s of tests without, 128-137 s with, on 2 cores): it
 * is off, a failed test leaves its screenshot, and `E2E_TRACE=retain-on-failure` (or another of
 * Playwright's trace modes) records traces again for a run looking into a failure.
 */
const TRACE_MODES = [
  "off",
  "on",
  "retain-on-failure",
  "retain-on-first-failure",
  "on-first-retry",
  "on-all-retries",
] as const;
const trace = TRACE_MODES.find((mode) => mode === process.env.E2E_TRACE) ?? "off";

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: testBrowserPath(),
      args: ["--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  projects: [
    {
      name: "mobile-375",
      use: { ...devices["Desktop Chrome"], viewport: { width: 375, height: 800 } },
    },
    {
      name: "desktop-1280",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 900 } },
    },
  ],
  webServer: [
    {
      command: "node scripts/e2e-server.js",
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { E2E_PORT: String(PORT) },
    },
    // The hostile-input site (e2e/hostile.spec.ts): feeds and blog posts made of attacks.
    {
      command: "node scripts/e2e-server.js",
      url: `http://127.0.0.1:${PORT + 1}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { E2E_PORT: String(PORT + 1), E2E_SITE: "hostile" },
    },
    // The newsroom's site (e2e/newsroom.spec.ts): the sample site again, for tests that change it.
    {
      command: "node scripts/e2e-server.js",
      url: `http://127.0.0.1:${PORT + 2}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { E2E_PORT: String(PORT + 2), E2E_SITE: "newsroom" },
    },
  ],
});
