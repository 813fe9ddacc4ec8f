/**
 * `npm run test:resilience`: the longer reliability checks, one after another (they share the
 * machine's cores, so never at once): load on the production build, several processes on one
 * PostgreSQL database, several machines behind Varnish, and the fuzz tests at full count. Prints a summary table, writes
 * docs/RELIABILITY.md and exits 1 when any requirement is not met.
 * `npm run test:resilience -- load` (or `multi-process`, `machines`, `fuzz`) runs only the checks named.
 */
import fs from "node:fs";
import { machineLine, formatMarkdownTable, writeDocSection } from "../server/test-support/report";
import { formatTable } from "../cli/table";
import { passed, verdictList, type CheckResult } from "./check";
import { fuzzCheck } from "./fuzz";
import { loadCheck } from "./load";
import { machinesCheck } from "./machines";
import { multiProcessCheck } from "./multi-process";
import { stopAll } from "./processes";

const CHECKS: { id: string; title: string; run: () => Promise<CheckResult> }[] = [
  { id: "load", title: "Load: home page and newsletter signups at once", run: loadCheck },
  {
    id: "multi-process",
    title: "Several processes on one PostgreSQL database",
    run: multiProcessCheck,
  },
  {
    id: "machines",
    title: "Several machines: one database, one bucket, Varnish in front",
    run: machinesCheck,
  },
  { id: "fuzz", title: "Fuzz tests at full count", run: fuzzCheck },
];

const DOC = {
  file: "docs/RELIABILITY.md",
  header:
    "# Reliability\n\nWritten by `npm run test:resilience` (`.ci/run` runs it after `npm test`): the longer checks that the unit, integration and browser tests leave out. Each section names the machine and date of its last run.\n",
  marker: "resilience",
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !CHECKS.some((check) => check.id === name));
if (unknown.length > 0) {
  console.error(
    `Unknown check: ${unknown.join(", ")}. Checks: ${CHECKS.map((c) => c.id).join(", ")}.`,
  );
  process.exit(2);
}
const selected = names.length > 0 ? CHECKS.filter((c) => names.includes(c.id)) : CHECKS;

/** An interrupted run stops what it started and leaves docs/RELIABILITY.md as it was. */
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping the processes this run started…`);
    void stopAll().then(() => process.exit(130));
  });
}

const HEADERS = ["check", "result", "last run", "time", "numbers"];

/**
 * A check's row of the summary, kept (as a comment) in the check's own section, so that the summary
 * always shows the last run of every check, however many of them a run ran.
 */
const rowComment = (row: string[]) =>
  `<!-- summary-row ${JSON.stringify(row).replace(/--/g, "\\u002d\\u002d")} -->`;

const section = (text: string, id: string) =>
  new RegExp(`<!-- ${DOC.marker}:${id} -->[\\s\\S]*?<!-- /${DOC.marker}:${id} -->`).exec(text)?.[0];

/** The summary goes first: the sections follow it in the order they first ran. */
async function ensureSummaryFirst() {
  const start = `<!-- ${DOC.marker}:summary -->`;
  const current = fs.existsSync(DOC.file) ? fs.readFileSync(DOC.file, "utf8") : "";
  if (current.includes(start)) return;
  const firstSection = current.indexOf(`<!-- ${DOC.marker}:`);
  const placeholder = `${start}\n## Summary\n\nNot run yet.\n<!-- /${DOC.marker}:summary -->\n\n`;
  fs.writeFileSync(
    DOC.file,
    firstSection < 0
      ? `${current || DOC.header}\n${placeholder}`
      : `${current.slice(0, firstSection)}${placeholder}${current.slice(firstSection)}`,
  );
}

/** The summary table from every check's last run; the time of the last full run, when there was one. */
async function writeSummary(fullRunLine: string | null) {
  const text = fs.readFileSync(DOC.file, "utf8");
  const rows = CHECKS.flatMap((check) => {
    const json = /<!-- summary-row (.*?) -->/.exec(section(text, check.id) ?? "")?.[1];
    return json ? [JSON.parse(json) as string[]] : [];
  });
  const previous = /^Last full run: .*$/m.exec(section(text, "summary") ?? "")?.[0];
  const line = fullRunLine ?? previous ?? "No full run yet.";
  await writeDocSection({
    ...DOC,
    id: "summary",
    title: "Summary",
    body: `${line}\n\n${formatMarkdownTable(HEADERS, rows)}`,
  });
}

const full = selected.length === CHECKS.length;
fs.mkdirSync("docs", { recursive: true });
await ensureSummaryFirst();

const started = Date.now();
const results: { result: CheckResult; row: string[] }[] = [];
for (const check of selected) {
  console.log(`\n▶ ${check.id}: ${check.title}`);
  const checkStarted = Date.now();
  let result: CheckResult;
  try {
    result = await check.run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = {
      id: check.id,
      title: check.title,
      verdicts: [{ pass: false, text: `the check could not run to its end: ${message}` }],
      summary: `did not complete: ${message.split("\n")[0]}`,
      body: `The check could not run to its end:\n\n\`\`\`text\n${message}\n\`\`\``,
    };
  } finally {
    // Whatever a failed check left running is stopped before the next one starts.
    await stopAll();
  }
  if (interrupted) break;
  const seconds = Math.round((Date.now() - checkStarted) / 1000);
  const row = [
    result.id,
    passed(result) ? "PASS" : "FAIL",
    new Date().toISOString().slice(0, 16).replace("T", " "),
    `${seconds} s`,
    result.summary,
  ];
  results.push({ result, row });
  console.log(
    `${verdictList(result.verdicts)}\n${passed(result) ? "✔" : "✖"} ${check.id} (${seconds} s)`,
  );
  await writeDocSection({
    ...DOC,
    id: check.id,
    title: result.title,
    body: `${rowComment(row)}\nLast run: ${machineLine()}; ${seconds} s. **${passed(result) ? "PASS" : "FAIL"}**\n\n${result.body}`,
  });
}

// The signal handler exits once the processes are stopped.
if (interrupted) await new Promise(() => {});
const total = Math.round((Date.now() - started) / 1000);
console.log(
  `\n${formatTable(
    HEADERS,
    results.map(({ row }) => row),
  )}\n`,
);
await writeSummary(
  full ? `Last full run: ${machineLine()}; ${total} s for all ${CHECKS.length} checks.` : null,
);
const failed = results.filter(({ result }) => !passed(result));
console.log(
  failed.length === 0
    ? `✔ every resilience check passed in ${total} s (docs/RELIABILITY.md)`
    : `✖ ${failed.map(({ result }) => result.id).join(", ")} failed (${total} s; docs/RELIABILITY.md)`,
);
process.exit(failed.length === 0 ? 0 : 1);
