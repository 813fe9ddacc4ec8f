import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{app,shared,server,cli,scripts,resilience,bench}/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default (one core fewer than the machine has) is a single worker on 2 cores, while
    // most files wait on databases, servers and timers: two at once took 165 s instead of 260 s.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
