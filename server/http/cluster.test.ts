import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery } from "../db/admin";
import { freePort } from "./free-port";
import { ensureBuilt } from "./test-build";
import { metricsAuthorization, SAMPLE_METRICS_TOKEN } from "../../scripts/sample-site.js";

/**
 * WEB_CONCURRENCY=2 on PostgreSQL: a supervisor and two web processes on one port. Only one of them
 * runs the ingest schedule; `/metrics` counts the requests of both; the form rate limit counts both
 * together; a web process that dies is replaced (the schedule with it); SIGTERM stops them all and
 * the supervisor exits 0.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.warn("TEST_DATABASE_URL is not set: the several-web-process test was NOT run.");
}

const root = path.resolve(".");
const name = `news_cluster_${process.pid}`;
const port = await freePort();

const admin = (sql: string) => adminQuery(adminUrl ?? "", sql);
/** Signups one address may send in 10 minutes, across both processes. */
const FORM_RATE_LIMIT = 4;

/** A GET on a connection of its own, so that requests spread over the web processes. */
function get(pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `http://127.0.0.1:${port}${pathname}`,
        { agent: false, headers: metricsAuthorization(pathname) },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      )
      .on("error", reject);
  });
}

/** A form POST on a connection of its own, as a browser without JavaScript sends it. */
function post(pathname: string, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `http://127.0.0.1:${port}${pathname}`,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

interface LogLine {
  pid: number;
  msg: string;
  role?: string;
}

/** The web processes the supervisor runs now. */
function children(pid: number): number[] {
  try {
    const list = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return list ? list.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

/** Waits for `condition` outside a test (expect.poll works inside tests only). */
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!adminUrl)("several web processes (WEB_CONCURRENCY)", () => {
  let site: ChildProcess;
  let exited: Promise<number | null>;
  const lines: LogLine[] = [];
  const pidsSaying = (msg: string) => [
    ...new Set(lines.filter((line) => line.msg === msg).map((line) => line.pid)),
  ];

  beforeAll(async () => {
    ensureBuilt(root);
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl ?? "");
    url.pathname = `/${name}`;
    site = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: "2",
        FEEDS_FILE: "config/feeds.sample.json",
        INGEST_INTERVAL_MINUTES: "60",
        FORM_RATE_LIMIT: String(FORM_RATE_LIMIT),
        LOG_LEVEL: "info",
        METRICS_TOKEN: SAMPLE_METRICS_TOKEN,
        // Signups' confirmation mails go to a folder of the test's own; no digest is scheduled.
        MAIL_OUTBOX_DIR: path.join(os.tmpdir(), `${name}-outbox`),
        NEWSLETTER_SEND_AT: "off",
      },
    });
    exited = new Promise((resolve) => site.on("exit", resolve));
    let partial = "";
    const read = (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const complete = text.split("\n");
      partial = complete.pop() ?? "";
      for (const line of complete) {
        try {
          lines.push(JSON.parse(line) as LogLine);
        } catch {
          // not a log line
        }
      }
    };
    site.stdout?.on("data", read);
    site.stderr?.on("data", read);
    await until(() => pidsSaying("ingest pass finished").length === 1, 60_000);
    await until(() => pidsSaying("listening").length === 2, 30_000);
  }, 120_000);

  afterAll(async () => {
    if (site && site.exitCode === null) site.kill("SIGKILL");
    for (const pid of site?.pid ? children(site.pid) : []) process.kill(pid, "SIGKILL");
    if (adminUrl) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it("runs two web processes on one port, one of them with the ingest schedule", async () => {
    const workers = children(site.pid ?? 0);
    expect(workers).toHaveLength(2);
    expect(pidsSaying("listening").sort()).toEqual([...workers].sort());
    // The other process neither ran a pass nor tried to.
    expect(lines.filter((line) => line.msg.startsWith("ingest pass"))).toHaveLength(1);
    expect(workers).toContain(pidsSaying("ingest pass finished")[0]);

    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.body).toContain('href="/article/');
  });

  it("counts every process's requests in /metrics", async () => {
    const requestsTo = async (route: string) => {
      const text = (await get("/metrics")).body;
      return text
        .split("\n")
        .filter((l) => l.startsWith(`http_requests_total{method="GET",route="${route}"`))
        .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
    };
    const before = await requestsTo("/local-news");
    const answers = await Promise.all(Array.from({ length: 12 }, () => get("/local-news")));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    // Each process saw only its share; the sum is all of them.
    expect((await requestsTo("/local-news")) - before).toBe(12);
    const metrics = (await get("/metrics")).body;
    expect(metrics).toMatch(/^articles \d+$/m);
    expect(Number(/^articles (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  });

  it("counts one address's form submissions against one limit, whichever process answers", async () => {
    // Connections go to the two processes in turn: counted per process, all five would pass.
    const statuses: number[] = [];
    for (let i = 0; i <= FORM_RATE_LIMIT; i++) {
      const email = encodeURIComponent(`cluster-${i}@example.com`);
      statuses.push((await post("/newsletter", `email=${email}&returnTo=%2F`)).status);
    }
    expect(statuses).toEqual([...Array<number>(FORM_RATE_LIMIT).fill(303), 429]);
  });

  it("replaces a web process that dies, the schedule's holder included", async () => {
    const holder = pidsSaying("ingest pass finished")[0] ?? 0;
    const other = children(site.pid ?? 0).find((pid) => pid !== holder) ?? 0;
    process.kill(holder, "SIGKILL");
    await expect
      .poll(() => lines.some((line) => line.msg === "a web process exited: starting another"), {
        timeout: 10_000,
      })
      .toBe(true);
    // The site answered all along through the other process.
    expect((await get("/")).status).toBe(200);
    await expect
      .poll(() => pidsSaying("ingest pass finished").length, { timeout: 60_000, interval: 200 })
      .toBe(2);
    const workers = children(site.pid ?? 0);
    expect(workers).toHaveLength(2);
    expect(workers).toContain(other);
    expect(workers).not.toContain(holder);
    const replacement = workers.find((pid) => pid !== other);
    expect(pidsSaying("ingest pass finished")).toContain(replacement);
  }, 90_000);

  it("stops every web process on SIGTERM and exits 0", async () => {
    const workers = children(site.pid ?? 0);
    site.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(pidsSaying("stopped").sort()).toEqual([site.pid, ...workers].sort());
  }, 30_000);
});
