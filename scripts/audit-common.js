// What `npm run audit` (scripts/audit.js) and its real-photos mode (scripts/audit-real-photos.js)
// share: the browser's flags, serving the demo site, Lighthouse's figures and docs/AUDIT.md.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as prettier from "prettier";
import { WEB_PROCESS_ARGS, webProcessEnv } from "./web-process.js";

export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];
const REPORT_FILE = path.resolve("docs/AUDIT.md");
export const REPORT_PATH = path.relative(process.cwd(), REPORT_FILE);

export function step(title) {
  console.log(`\n▶ ${title}`);
}

/** @returns {never} */
export function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** The preferred port when it is free, else one the system picks. */
export function freePort(preferred) {
  const tryListen = (port) =>
    new Promise((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", () => {
        const { port: bound } = probe.address();
        probe.close(() => resolve(bound));
      });
    });
  return tryListen(preferred).catch(() => tryListen(0));
}

async function waitForServer(url, server, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      fail(`The server stopped before answering (exit ${server.exitCode}).`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`The server did not answer at ${url} within ${timeoutMs / 1000} s.`);
}

/** The production web process on `env` (as `npm start` runs it), once it answers at `origin`. */
export async function startWebProcess(env, origin) {
  const server = spawn(process.execPath, WEB_PROCESS_ARGS, {
    stdio: "inherit",
    env: webProcessEnv(env),
  });
  await waitForServer(`${origin}/`, server);
  return server;
}

/** Stops a web process started above, waiting up to 5 s for it to exit. */
export async function stopWebProcess(server) {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
}

export const median = (sorted) => sorted[Math.floor((sorted.length - 1) / 2)];
export const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
/** Of several Lighthouse runs of a page, the one with the median performance score. */
export const medianRun = (runs) =>
  median([...runs].sort((a, b) => score(a, "performance") - score(b, "performance")));

export function formatMarkdownTable(headers, rows) {
  const line = (cells) => `| ${cells.map(String).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export function machineLine() {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const memory = Math.round(os.totalmem() / 2 ** 30);
  return `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${cpu}, ${memory} GiB, Node ${process.version}`;
}

/** Writes a marked section of docs/AUDIT.md, replacing that section's earlier run (as server/test-support/report.ts does). */
export async function writeSection(id, title, body) {
  const header =
    "# Lighthouse audit\n\nLighthouse (mobile, simulated throttling, ads in placeholder mode) over the demo site with the bundled sample feeds: the home page, a category, an article and the FAQ. Run with `npm run audit` (needs Chromium: `CHROMIUM_PATH` or `chromium` on `PATH`); it rewrites the section below. Targets: performance ≥ 95, accessibility, best practices and SEO 100. The run fails when SEO is below 100, and with `--strict` when any target is missed.\n\n`npm run audit -- --real-photos` measures the same site with feeds that link ordinary news photographs on another host, side by side with the sample pictures, and rewrites its own section (targets of issue 20).\n";
  const current = fs.existsSync(REPORT_FILE) ? fs.readFileSync(REPORT_FILE, "utf8") : header;
  const start = `<!-- audit:${id} -->`;
  const end = `<!-- /audit:${id} -->`;
  const section = `${start}\n## ${title}\n\n${body.trim()}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  const next = pattern.test(current)
    ? current.replace(pattern, () => section)
    : `${current.trimEnd()}\n\n${section}\n`;
  fs.mkdirSync(path.dirname(REPORT_FILE), { recursive: true });
  // Formatted as the rest of the repository, so `prettier --check` stays clean after a run.
  const options = (await prettier.resolveConfig(REPORT_FILE)) ?? {};
  fs.writeFileSync(REPORT_FILE, await prettier.format(next, { ...options, filepath: REPORT_FILE }));
}
