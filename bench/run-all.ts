/**
 * `npm run bench`: builds the site once, then runs every benchmark in turn (ingest, bundle, load,
 * render, memory over ingest passes, start-up, feed pictures, the newsletter, story grouping). Each prints its table, writes its section of
 * docs/BENCHMARKS.md and says PASS or MISS against its targets; a miss is reported, not fatal. The
 * run fails only when a benchmark could not run at all. Not part of `npm test`.
 */
import { spawn } from "node:child_process";

const STEPS: { name: string; args: string[] }[] = [
  { name: "ingest", args: ["--import", "tsx", "bench/ingest.ts"] },
  { name: "bundle", args: ["--import", "tsx", "bench/bundle.ts"] },
  { name: "load", args: ["--import", "tsx", "bench/load.ts"] },
  { name: "render", args: ["--import", "tsx", "bench/render.ts"] },
  { name: "memory", args: ["--expose-gc", "--import", "tsx", "bench/memory-ingest.ts"] },
  { name: "startup", args: ["--import", "tsx", "bench/startup.ts"] },
  { name: "pictures", args: ["--import", "tsx", "bench/pictures.ts"] },
  { name: "newsletter", args: ["--import", "tsx", "bench/newsletter.ts"] },
  { name: "grouping", args: ["--import", "tsx", "bench/grouping.ts"] },
];

/** Runs a command with its output passed through; resolves with its exit code and PASS/MISS lines. */
function run(command: string, args: string[]): Promise<{ code: number; verdicts: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    const verdicts = new Set<string>();
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const verdict = /^(?:- )?((?:PASS|MISS): .*)$/.exec(line)?.[1];
        if (verdict) verdicts.add(verdict);
      }
    });
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), verdicts: [...verdicts] }),
    );
  });
}

const started = Date.now();
console.log("\n▶ build: npm run build");
const build = await run("npm", ["run", "build"]);
if (build.code !== 0) {
  console.error("✖ The build failed: no benchmark run.");
  process.exit(1);
}

const summary: { name: string; code: number; verdicts: string[]; seconds: number }[] = [];
for (const step of STEPS) {
  console.log(`\n▶ ${step.name}: node ${step.args.join(" ")}`);
  const stepStarted = Date.now();
  const result = await run(process.execPath, step.args);
  summary.push({ name: step.name, ...result, seconds: (Date.now() - stepStarted) / 1000 });
}

console.log("\n━━ Summary ━━");
for (const { name, code, verdicts, seconds } of summary) {
  const status = code === 0 ? "ran" : `FAILED (exit ${code})`;
  console.log(`${name}: ${status} in ${seconds.toFixed(0)} s`);
  for (const verdict of verdicts) console.log(`  ${verdict}`);
}
const misses = summary.flatMap((s) => s.verdicts).filter((v) => v.startsWith("MISS")).length;
const failed = summary.filter((s) => s.code !== 0).map((s) => s.name);
const verdict =
  failed.length > 0
    ? `${failed.join(", ")} could not run; ${misses} target(s) missed among the rest`
    : misses === 0
      ? "Every target met"
      : `${misses} target(s) missed`;
console.log(
  `\n${verdict}; results in docs/BENCHMARKS.md; ${Math.round((Date.now() - started) / 1000)} s in all.`,
);
if (failed.length > 0) {
  console.error(`✖ Could not run: ${failed.join(", ")}.`);
  process.exit(1);
}
