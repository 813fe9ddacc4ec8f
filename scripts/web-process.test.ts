import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { WEB_PROCESS_ARGS, WEB_PROCESS_FLAGS } from "./web-process.js";

describe("how the web process is started", () => {
  it("`npm start` runs it with the same flags as the demo, the tests and the benchmarks", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`NODE_ENV=production node ${WEB_PROCESS_ARGS.join(" ")}`);
  });

  it("names only flags this Node accepts (it refuses to start on an unknown one)", () => {
    const run = spawnSync(process.execPath, [...WEB_PROCESS_FLAGS, "-e", ""], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(spawnSync(process.execPath, ["--no-such-flag", "-e", ""]).status).not.toBe(0);
  });
});
