// `npm test`: every check the project has, in order, stopping at the first failure.
import { spawnSync } from "node:child_process";

const STEPS = [
  ["types", "npx", ["react-router", "typegen"]],
  ["types", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
  ["format", "npx", ["prettier", "--check", "."]],
  ["build", "npm", ["run", "build"]],
  // The Varnish test runs a real varnishd: installed here when it can be, or the run stops.
  ["varnish", "node", ["scripts/ensure-varnish.js"]],
  ["unit and integration", "npx", ["vitest", "run"]],
  ["browser", "node", ["scripts/ensure-chromium.js"]],
  ["browser", "npx", ["playwright", "test"]],
];

const started = Date.now();
for (const [name, command, args] of STEPS) {
  console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(
      `\n✖ ${name} failed (${command} ${args.join(" ")} exited with ${result.status ?? result.signal}).`,
    );
    process.exit(result.status || 1);
  }
}
console.log(`\n✔ all checks passed in ${Math.round((Date.now() - started) / 1000)} s`);
