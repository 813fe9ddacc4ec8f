import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  WEB_PROCESS_ARGS,
  WEB_PROCESS_ENV,
  WEB_PROCESS_ENV_LINE,
  WEB_PROCESS_FLAGS,
  webProcessEnv,
} from "./web-process.js";

/** The C library this Node runs on, when it is glibc (Node's report names its version). */
const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
  ?.glibcVersionRuntime;

/**
 * Megabytes a process keeps after freeing 1 MB blocks that follow a larger block freed (as the web
 * process's start-up does), the last of them still in use so the arena's top cannot shrink.
 */
function keptAfterFreeing(env: NodeJS.ProcessEnv): number {
  const script = `
    const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(require("fs").readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
    let large = Buffer.alloc(16 * 1024 * 1024); large = null; gc();
    const before = rss();
    let blocks = Array.from({ length: 150 }, () => Buffer.alloc(1024 * 1024));
    const last = blocks.at(-1);
    blocks = null; gc(); gc();
    console.log(rss() - before, last.length);`;
  const run = spawnSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8", env });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout.split(" ")[0]);
}

describe("how the web process is started", () => {
  it("`npm start` runs it with the same settings as the demo, the tests and the benchmarks", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(
      `NODE_ENV=production ${WEB_PROCESS_ENV_LINE} node ${WEB_PROCESS_ARGS.join(" ")}`,
    );
  });

  it("names only flags this Node accepts (it refuses to start on an unknown one)", () => {
    const run = spawnSync(process.execPath, [...WEB_PROCESS_FLAGS, "-e", ""], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(spawnSync(process.execPath, ["--no-such-flag", "-e", ""]).status).not.toBe(0);
  });

  it("keeps a malloc setting the operator gave", () => {
    expect(webProcessEnv({ PORT: "3000" })).toEqual({ ...WEB_PROCESS_ENV, PORT: "3000" });
    expect(webProcessEnv({ MALLOC_TRIM_THRESHOLD_: "1048576" }).MALLOC_TRIM_THRESHOLD_).toBe(
      "1048576",
    );
  });

  // 150 MB freed: without the setting about 20 MB of it stays with the process on glibc 2.36.
  it.skipIf(!glibc || process.platform !== "linux")(
    "gives freed blocks back to the system with its malloc setting (glibc)",
    () => {
      expect(keptAfterFreeing(webProcessEnv(process.env))).toBeLessThan(5);
    },
  );
});
