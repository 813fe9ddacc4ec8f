import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseWrk, runWrk } from "./wrk";

/** What wrk 4.2 printed for a run of `resilience/newsletter.lua` on this project's site. */
const OUTPUT = `Running 1m test @ http://127.0.0.1:5150/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    72.06ms   11.76ms 262.91ms   86.46%
    Req/Sec   696.24    109.73     0.88k    69.00%
  Latency Distribution
     50%   67.40ms
     75%   77.44ms
     90%   86.81ms
     99%  116.43ms
  41639 requests in 1.03m, 26.32MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:    670.98
Transfer/sec:    434.26KB
`;

const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fake-wrk-"));
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));

/** A `wrk` on PATH that runs `script` (sh) instead of the real one. */
function fakeWrk(script: string): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(bin, "bin-"));
  fs.writeFileSync(path.join(dir, "OUTPUT"), OUTPUT);
  fs.writeFileSync(path.join(dir, "wrk"), `#!/bin/sh\ncd "${dir}"\n${script}\n`, { mode: 0o755 });
  return { ...process.env, PATH: `${dir}:${process.env.PATH ?? ""}` };
}

describe("parseWrk", () => {
  it("reads the numbers wrk prints", () => {
    const result = parseWrk(OUTPUT);
    expect(result).toMatchObject({
      requests: 41639,
      rps: 670.98,
      p50Ms: 67.4,
      p99Ms: 116.43,
      maxMs: 262.91,
      non2xx3xx: 7,
      socket: { connect: 0, read: 2, write: 0, timeout: 3 },
    });
  });
});

describe("runWrk", () => {
  it("waits for what wrk wrote even when it arrives after the process exited", async () => {
    // The output is written by a child that outlives the script: its "exit" comes first, then the
    // summary, then the end of the pipe. Reading at "exit" gave NaN for every number.
    const env = fakeWrk("(sleep 0.3; cat OUTPUT) &\nexit 0");
    const result = await runWrk(["-c1", "http://127.0.0.1:9/"], env);
    expect(result.requests).toBe(41639);
    expect(result.rps).toBe(670.98);
  });

  it("fails with what wrk printed when it printed no summary", async () => {
    const env = fakeWrk('echo "PANIC: unprotected error in call to Lua API"\nexit 0');
    await expect(runWrk(["-c1", "http://127.0.0.1:9/"], env)).rejects.toThrow(
      /printed no summary:\nPANIC: unprotected error/,
    );
  });

  it("fails with wrk's exit code and its error output", async () => {
    const env = fakeWrk('echo "unable to connect" >&2\nexit 1');
    await expect(runWrk(["-c1", "http://127.0.0.1:9/"], env)).rejects.toThrow(
      /exited with 1: unable to connect/,
    );
  });
});
