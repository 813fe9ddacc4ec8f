import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client";
import { listSubscribers } from "../test-support/subscribers";
import { freePort } from "./free-port";
import { ensureBuilt } from "./test-build";

/**
 * The web process and the `news` command on one embedded database: the command must refuse to open
 * it while the site runs, and what the site wrote must all be there after SIGTERM.
 */

const root = path.resolve(".");
const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-lifecycle-"));
const env = {
  PATH: process.env.PATH ?? "",
  NODE_ENV: "production",
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  INGEST_INTERVAL_MINUTES: "0",
  LOG_LEVEL: "info",
};

function run(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("site and news command on one embedded database", () => {
  let site: ChildProcess;
  let siteOutput = "";

  beforeAll(async () => {
    ensureBuilt(root);
    site = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`site did not start:\n${siteOutput}`)),
        60_000,
      );
      site.stdout?.on("data", (chunk: Buffer) => {
        siteOutput += chunk.toString();
        if (siteOutput.includes('"msg":"listening"')) {
          clearTimeout(timer);
          resolve();
        }
      });
      site.on("exit", (code) => reject(new Error(`site exited with ${code}:\n${siteOutput}`)));
    });
  }, 90_000);

  afterAll(() => {
    if (site.exitCode === null) site.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps idle connections longer than a proxy's upstream idle timeout", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    await response.arrayBuffer();
    // Node announces its idle timeout: 65 s, past nginx's and load balancers' 60 s.
    expect(response.headers.get("keep-alive")).toBe("timeout=65");
  });

  it("refuses a second process on the same data directory, with a clear message", async () => {
    const result = await run(["--import", "tsx", "cli/news.ts", "migrate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `The embedded database in ${dataDir} is in use by the web server`,
    );
    expect(result.stderr).toContain("DATABASE_URL");
  });

  it("keeps what the site wrote after SIGTERM", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/newsletter`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=Lifecycle%40Example.com&_inline=1",
    });
    expect(response.status).toBe(200);

    const exited = new Promise<number | null>((resolve) => site.on("exit", resolve));
    site.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "news.lock"))).toBe(false);

    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    try {
      expect((await listSubscribers(handle.db)).map((s) => s.email)).toEqual([
        "lifecycle@example.com",
      ]);
    } finally {
      await handle.close();
    }
  });
});
