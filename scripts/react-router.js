// `react-router <command>` (`build`, `typegen`), its output passed through but for React Router's
// own envFile deprecation warning (scripts/build-output.js), so that a warning that is ours stands
// out.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { isUpstreamDeprecation } from "./build-output.js";

const command = process.argv.slice(2);
const child = spawn(process.execPath, ["node_modules/@react-router/dev/bin.js", ...command], {
  stdio: ["inherit", "pipe", "pipe"],
  env: process.env,
});
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  createInterface({ input: from }).on("line", (line) => {
    if (!isUpstreamDeprecation(line)) to.write(`${line}\n`);
  });
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
