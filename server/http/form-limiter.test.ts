import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RateVerdict } from "../forms/guard";

/**
 * A web process behind the supervisor asks it for each form verdict (one count for all processes);
 * if the supervisor does not answer, the process's own count decides after 2 s, so forms keep
 * working, limited as a lone process would limit them.
 */
function run(supervisor: "answers" | "silent"): RateVerdict[] {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", path.resolve("server/http/fixtures/rate-limit-supervisor.ts")],
    { env: { ...process.env, SUPERVISOR: supervisor }, encoding: "utf8", timeout: 30_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  return (JSON.parse(line) as { verdicts: RateVerdict[] }).verdicts;
}

describe("the form rate limit of a web process behind the supervisor", () => {
  it("is the supervisor's verdict when it answers, whatever the process's own count says", () => {
    expect(run("answers")).toEqual(
      [1, 2, 3].map(() => ({ allowed: false, retryAfterSeconds: 42 })),
    );
  });

  it("falls back to the process's own count when the supervisor does not answer", () => {
    expect(run("silent").map((verdict) => verdict.allowed)).toEqual([true, true, false]);
  });
});
