import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** `news purge`: keys purged by hand with the configured purger (after a deploy: `site`). */

const TOKEN = "fastly-token-for-the-test";
let server: http.Server;
let api: string;
const received: { url: string; keys: string | undefined; token: string | undefined }[] = [];
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push({
      url: req.url ?? "",
      keys: req.headers["surrogate-key"] as string | undefined,
      token: req.headers["fastly-key"] as string | undefined,
    });
    res.writeHead(status, { "Content-Type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function news(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", ...args], {
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const fastly = {
  PURGER: "fastly",
  FASTLY_API_URL: "",
  FASTLY_SERVICE_ID: "svc",
  FASTLY_API_TOKEN: TOKEN,
};

describe("news purge", { timeout: 60_000 }, () => {
  it("purges the keys named with the configured purger, and says so", async () => {
    const result = await news(["purge", "site", "home"], { ...fastly, FASTLY_API_URL: api });
    expect(result.stdout).toBe("Purged site, home (fastly).\n");
    expect(result.code).toBe(0);
    expect(received).toEqual([{ url: "/service/svc/purge", keys: "site home", token: TOKEN }]);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it("fails when the provider refuses, and refuses what is not a key", async () => {
    status = 403;
    const refused = await news(["purge", "site"], { ...fastly, FASTLY_API_URL: api });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("The purge failed (fastly)");
    expect((await news(["purge", "Not a key"], fastly)).code).toBe(2);
    expect((await news(["purge"], fastly)).code).toBe(2);
  });

  it("says there is nothing to purge without PURGER", async () => {
    const none = await news(["purge", "site"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("PURGER is none");
  });
});
