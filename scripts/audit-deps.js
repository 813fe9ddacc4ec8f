// CI: the production dependencies must have no high or critical advisories (`npm audit --omit=dev`).
// When the advisory service cannot be reached, this says so plainly: the check was NOT made.
import { spawnSync } from "node:child_process";

const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8" });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = null;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason = (run.stderr || run.stdout || "no answer")
    .split("\n")
    .find((l) => /error|405|ENOTFOUND|ECONN/i.test(l));
  console.warn(
    `npm audit could not reach the advisory service (${reason?.trim() ?? "no answer"}): dependencies were NOT audited.`,
  );
  process.exit(0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(
  `npm audit --omit=dev: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low.`,
);
if (serious > 0) {
  console.error(
    "High or critical advisories in production dependencies: run `npm audit --omit=dev`.",
  );
  process.exit(1);
}
