// Dead-code check (`npm run lint:dead`, part of `npm test`): files, exports and dependencies that
// nothing uses. Its plugins find most entry points (package.json scripts and bin, React Router's
// routes, Vitest and Playwright tests, the web servers of playwright.config.ts); these are the rest.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  entry: [
    // The picture maker's child process: forked by path (server/images/picture-maker.ts) and
    // compiled beside the web process (scripts/build-server.js).
    "server/images/picture-worker.ts",
    // Run by path: from bench/ingest.ts (fork), scripts/e2e-server.js, .ci/run and scripts/test.js.
    "bench/feed-servers.ts",
    "fixtures/hostile/write.ts",
    "scripts/audit-deps.js",
    "scripts/ensure-varnish.js",
  ],
  // System tools the benches and tests run, installed by the system's package manager.
  ignoreBinaries: ["nginx", "wrk", "java"],
  ignoreDependencies: [
    // Started by its resolved path (server/test-support/s3-server.ts).
    "s3rver",
    // Its jar run by path with java (server/seo/seo.test.ts).
    "vnu-jar",
  ],
};

export default config;
