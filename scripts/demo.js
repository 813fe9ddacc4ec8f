// `npm run demo`: build, load the bundled sample feeds into an embedded database, serve it.
// Works offline. Settings can still be overridden from the environment (PORT, DATA_DIR, ...).
import { spawnSync, spawn } from "node:child_process";
import path from "node:path";
import { sampleEmbeds } from "./sample-site.js";
import { WEB_PROCESS_ARGS, webProcessEnv } from "./web-process.js";

// Sample images and embed pages are served by the site itself, so their addresses follow the port
// it listens on.
const siteUrl =
  process.env.SITE_URL ?? `http://${process.env.HOST ?? "localhost"}:${process.env.PORT ?? 3000}`;

const env = {
  // Every embed of the spec shows, with SAMPLE settings; any set in the environment wins.
  ...sampleEmbeds(siteUrl),
  ...process.env,
  NODE_ENV: "production",
  FEEDS_FILE: process.env.FEEDS_FILE ?? "config/feeds.sample.json",
  DATA_DIR: process.env.DATA_DIR ?? "./data/demo",
  SITE_URL: siteUrl,
};

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed.`);
    process.exit(result.status || 1);
  }
}

step("Building the site", "npm", ["run", "build"]);
step("Loading the sample feeds", process.execPath, [
  "--import",
  "tsx",
  "cli/news.ts",
  "ingest",
  "--force",
]);

// A SAMPLE editor account, so a newcomer can sign in to the newsroom and write at once. Made
// again (its password reset to the sample one) on every demo run; the demo's database only.
const SAMPLE_EDITOR = "sample.editor@example.org";
const SAMPLE_PASSWORD = "sample-editor-password";
function sampleEditor() {
  const run = (args) =>
    spawnSync(process.execPath, ["--import", "tsx", "cli/news.ts", "staff", ...args], {
      input: `${SAMPLE_PASSWORD}\n`,
      env,
      encoding: "utf8",
    });
  const added = run(["add", SAMPLE_EDITOR, "--role", "editor", "--password-stdin"]);
  if (added.status !== 0 && run(["reset", SAMPLE_EDITOR, "--password-stdin"]).status !== 0) {
    console.error(`✖ The sample editor account could not be made:\n${added.stderr}`);
    process.exit(1);
  }
}
console.log("\n▶ Making the SAMPLE editor account");
sampleEditor();

console.log(`\n▶ Serving on http://${env.HOST ?? "localhost"}:${env.PORT ?? 3000} (Ctrl-C stops)`);
console.log(
  env.SMTP_URL
    ? "  Newsletter mail goes to the SMTP server in SMTP_URL."
    : `  Newsletter mail (confirmations, the daily digest at ${env.NEWSLETTER_SEND_AT ?? "06:00"} San Diego time) is written as .eml files to ${path.resolve(env.MAIL_OUTBOX_DIR ?? path.join(env.DATA_DIR, "outbox"))}; send one now with \`DATA_DIR=${env.DATA_DIR} npm run news -- newsletter send\` while the site is stopped.`,
);
console.log(
  `  Newsroom: http://${env.HOST ?? "localhost"}:${env.PORT ?? 3000}/newsroom/sign-in with the SAMPLE editor account ${SAMPLE_EDITOR}, password ${SAMPLE_PASSWORD} (demo only; write under Writing).`,
);
const server = spawn(process.execPath, WEB_PROCESS_ARGS, {
  stdio: "inherit",
  env: webProcessEnv(env),
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
