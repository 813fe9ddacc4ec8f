/**
 * Fuzz at full count: the fast-check properties of server/reliability/fuzz.test.ts with
 * FUZZ_RUNS=10000 (RESILIENCE_FUZZ_RUNS overrides), on PGlite and, when TEST_DATABASE_URL is set,
 * PostgreSQL. The test writes what each target saw to FUZZ_REPORT; that table goes in the report.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { formatMarkdownTable } from "../server/test-support/report";
import { verdictList, type CheckResult, type Verdict } from "./check";
import { envNumber, startProcess } from "./processes";

const TEST_FILE = "server/reliability/fuzz.test.ts";

/** One row of FUZZ_REPORT, as the fuzz test writes it. */
const reportRow = z.object({
  target: z.string(),
  database: z.string(),
  runs: z.number(),
  statuses: z.record(z.string(), z.number()),
  stored: z.number(),
  ms: z.number(),
});
type ReportRow = z.infer<typeof reportRow>;

/** `{ "200": 9000, "400": 1000 }` as `200 × 9000, 400 × 1000`. */
const statusList = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${status} × ${count}`)
    .join(", ") || "none";

export async function fuzzCheck(): Promise<CheckResult> {
  if (!fs.existsSync(TEST_FILE)) throw new Error(`${TEST_FILE} does not exist`);
  // Each process would build the site when there is no build, both into build/ at once.
  if (!fs.existsSync("build/server/index.js")) {
    throw new Error("No production build in build/: run `npm run build` first.");
  }
  const runs = envNumber("RESILIENCE_FUZZ_RUNS", 10_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "resilience-fuzz-"));
  try {
    const started = Date.now();
    // One vitest process per database, side by side: each runs the site and the generator on one
    // JavaScript thread, so two use both cores and take about half the time of one after the
    // other. TEST_DATABASE_URL passes through with the rest of the environment; vitest itself (what
    // `npx vitest` runs) leads a group with its workers, so an interrupted run stops them all.
    const names = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
    const runsOf = names.map((name) => {
      const reportFile = path.join(work, `fuzz-report-${name}.json`);
      const vitest = startProcess(
        `vitest (${name})`,
        process.execPath,
        ["node_modules/vitest/vitest.mjs", "run", TEST_FILE],
        { ...process.env, FUZZ_RUNS: String(runs), FUZZ_REPORT: reportFile, FUZZ_DATABASE: name },
        { echo: true, group: true },
      );
      return { reportFile, vitest };
    });
    const exits = await Promise.all(runsOf.map((run) => run.vitest.exited));
    const code = exits.find((exit) => exit.code !== 0)?.code ?? exits[0]?.code ?? null;
    const output = runsOf
      .flatMap((run) => run.vitest.lines)
      .join("\n")
      // eslint-disable-next-line no-control-regex -- the escape sequences of vitest's colours
      .replace(/\u001b\[[0-9;]*m/g, "");
    const seconds = (Date.now() - started) / 1000;
    let rows: ReportRow[] = [];
    let reportError = "";
    try {
      rows = runsOf.flatMap((run) =>
        z.array(reportRow).parse(JSON.parse(fs.readFileSync(run.reportFile, "utf8"))),
      );
    } catch (error) {
      reportError = error instanceof Error ? error.message : String(error);
    }
    const databases = [...new Set(rows.map((row) => row.database))];
    const verdicts: Verdict[] = [
      {
        pass: code === 0,
        text: `\`vitest run ${TEST_FILE}\` with FUZZ_RUNS=${runs} exited with ${code ?? "a signal"}`,
      },
      {
        pass: rows.length > 0 && rows.every((row) => row.runs >= runs),
        text: reportError
          ? `FUZZ_REPORT could not be read: ${reportError.split("\n")[0]}`
          : `${rows.length} targets reported, each with at least ${runs} runs (fewest: ${Math.min(...rows.map((row) => row.runs))})`,
      },
      {
        pass: !process.env.TEST_DATABASE_URL || databases.some((d) => /postgres/i.test(d)),
        text: process.env.TEST_DATABASE_URL
          ? `run on ${databases.join(" and ") || "no database"} (TEST_DATABASE_URL is set)`
          : `run on ${databases.join(" and ") || "no database"}; TEST_DATABASE_URL is not set, so NOT on PostgreSQL`,
      },
    ];
    const table = formatMarkdownTable(
      ["target", "database", "runs", "statuses", "stored", "time"],
      rows.map((row) => [
        row.target,
        row.database,
        row.runs,
        statusList(row.statuses),
        row.stored,
        `${(row.ms / 1000).toFixed(1)} s`,
      ]),
    );
    const failure =
      code === 0
        ? ""
        : `\n\nThe end of vitest's output:\n\n\`\`\`text\n${output.trim().split("\n").slice(-30).join("\n")}\n\`\`\``;
    return {
      id: "fuzz",
      title: "Fuzz tests at full count",
      verdicts,
      summary: `${rows.length} targets on ${databases.join(" + ") || "no database"}, ${rows.reduce((n, row) => n + row.runs, 0)} inputs (${rows.filter((row) => row.runs < runs).length} targets stopped short of ${runs}); vitest exit code ${code}`,
      body: `${rows.length > 0 ? table : "No report was written."}

${verdictList(verdicts)}${failure}

How: \`FUZZ_RUNS=${runs} FUZZ_DATABASE=<name> FUZZ_REPORT=<file> npx vitest run ${TEST_FILE}\`, one process per database (${names.join(" and ")}) side by side; the table is the file the test wrote (statuses: answers by status; stored: what reached the database). ${seconds.toFixed(0)} s in all.`,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
