import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { freePort } from "./free-port";
import { ensureBuilt } from "./test-build";

/**
 * SIGTERM with a request under way: the process stops taking connections, lets the request finish,
 * closes the database and exits 0. The request is kept busy by a slow hosted blog API.
 */

const root = path.resolve(".");
const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-shutdown-"));
const SLOW_MS = 1_500;
let api: FixtureServer;

beforeAll(async () => {
  ensureBuilt(root);
  api = await startFixtureServer();
  api.route("/get_metainfo", (_req, res) => {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ blogs: [], total: 0 }));
  });
  api.route("/get_details", async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        slug: "slow-post",
        metaTitle: "A post worth the wait",
        metaDescription: "Served slowly on purpose.",
        date: "2026-11-01",
        blog: "<p>Worth it.</p>",
      }),
    );
  });
});

afterAll(async () => {
  await api?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("graceful shutdown", () => {
  it("finishes the request in flight, refuses new ones, and exits 0", async () => {
    const site = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        INGEST_INTERVAL_MINUTES: "0",
        LOG_LEVEL: "info",
        BLOG_SOURCE: "hosted",
        BLOG_API_URL: api.url(""),
        BLOG_API_KEY: "test-key",
      },
    });
    let output = "";
    site.stdout.on("data", (c: Buffer) => (output += c.toString()));
    site.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => site.on("exit", resolve));
    await expect
      .poll(() => output.includes('"msg":"listening"'), { timeout: 60_000, interval: 200 })
      .toBe(true);

    const inFlight = fetch(`http://127.0.0.1:${port}/blog/slow-post`).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));
    await expect.poll(() => api.hits("/get_details"), { interval: 20 }).toBeGreaterThan(0);
    site.kill("SIGTERM");
    await expect.poll(() => output.includes("shutting down"), { interval: 20 }).toBe(true);

    const refused = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => "answered",
      () => "refused",
    );
    expect(refused).toBe("refused");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("A post worth the wait");
    const started = Date.now();
    expect(await exited).toBe(0);
    // Once the last request is answered the process goes, without waiting out idle connections.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dataDir, "news.lock"))).toBe(false);
  }, 90_000);
});
