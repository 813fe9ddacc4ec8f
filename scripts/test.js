// `npm test`: every check the project has, in order, stopping at the first failure.
import { spawn, spawnSync } from "node:child_process";

/**
 * Each entry runs after the one before has passed. A list of commands runs them side by side (each
 * takes one core and none writes what another reads: 55 s one after another, about 30 s at once on
 * 2 cores), their output shown command by command once all have ended.
 */
const STEPS = [
  ["types", "npx", ["react-router", "typegen"]],
  [
    ["types", "npx", ["tsc", "--noEmit"]],
    ["lint", "npx", ["eslint", ".", "--max-warnings", "0"]],
    ["format", "npx", ["prettier", "--check", "."]],
    // Files, exports and dependencies nothing uses (knip.ts names the entry points).
    ["dead code", "npx", ["knip"]],
  ],
  ["build", "npm", ["run", "build"]],
  // The Varnish test runs a real varnishd: installed here when it can be, or the run stops.
  ["varnish", "node", ["scripts/ensure-varnish.js"]],
  ["unit and integration", "npx", ["vitest", "run"]],
  ["browser", "node", ["scripts/ensure-chromium.js"]],
  ["browser", "npx", ["playwright", "test"]],
];

/** @param {string} name @param {string} command @param {string[]} args */
const title = (name, command, args) => `${name}: ${command} ${args.join(" ")}`;

/** @param {string} name @param {string} command @param {string[]} args @param {number | string | null} status */
function fail(name, command, args, status) {
  console.error(`\n✖ ${name} failed (${command} ${args.join(" ")} exited with ${status}).`);
}

/**
 * Runs one command with its output captured (stdout and stderr in the order written).
 *
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<{ status: number | string | null, output: string }>}
 */
function captured(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ status: error.message, output }));
    child.on("close", (code, signal) => resolve({ status: code ?? signal, output }));
  });
}

const started = Date.now();
for (const step of STEPS) {
  if (typeof step[0] === "string") {
    const [name, command, args] = /** @type {[string, string, string[]]} */ (step);
    console.log(`\n▶ ${title(name, command, args)}`);
    const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
    if (result.status !== 0) {
      fail(name, command, args, result.status ?? result.signal);
      process.exit(result.status || 1);
    }
    continue;
  }
  const together = /** @type {[string, string, string[]][]} */ (step);
  console.log(
    `\n▶ at once: ${together.map(([name, command, args]) => title(name, command, args)).join("; ")}`,
  );
  const results = await Promise.all(together.map(([, command, args]) => captured(command, args)));
  let failed = false;
  together.forEach(([name, command, args], i) => {
    const { status, output } = results[i] ?? { status: null, output: "" };
    console.log(`\n▶ ${title(name, command, args)}`);
    process.stdout.write(output);
    if (status !== 0) {
      fail(name, command, args, status);
      failed = true;
    }
  });
  if (failed) process.exit(1);
}
console.log(`\n✔ all checks passed in ${Math.round((Date.now() - started) / 1000)} s`);
