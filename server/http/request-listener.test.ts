import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { requestListener } from "./app";
import { createMetrics } from "./metrics";
import { cachedPage, PageCache } from "./page-cache";

/**
 * Pages in the cache are answered before Express: with a request id and a log line as every answer
 * has, counted in /metrics, and logged when they fail.
 */

const lines: {
  level: number;
  msg: string;
  path?: string;
  err?: { message: string };
  req?: { id: string; path: string; client: string };
  res?: { status: number };
}[] = [];
const logger = pino(
  { level: "info" },
  { write: (line: string) => void lines.push(JSON.parse(line)) },
);
const metrics = createMetrics(async () => 0);
const pageCache = new PageCache(1024 * 1024, 60_000);
let server: http.Server;
let base = "";

const page = (headers: [string, string][]) =>
  cachedPage(
    { status: 200, headers, body: Buffer.from("<p>kept</p>"), varyCookie: false },
    Date.now(),
  );

beforeAll(async () => {
  const config = parseConfig({ NODE_ENV: "production", LOG_LEVEL: "silent" });
  // Stands in for the site's app: says that it answered.
  const app = express();
  app.use((_req, res) => void res.status(503).send("from the app"));
  server = http.createServer(requestListener(app, { config, logger, pageCache, metrics }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("cached pages answered before Express", () => {
  it("are sent from the cache and counted in /metrics by route and status", async () => {
    pageCache.set("/article/a-story", await page([["content-type", "text/html"]]));
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${base}/article/a-story?utm_source=x`);
      expect(answer.headers.get("x-cache")).toBe(null);
      expect(answer.status).toBe(503);
    }
    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/article/a-story`);
      expect(answer.headers.get("x-cache")).toBe("HIT");
      expect(await answer.text()).toBe("<p>kept</p>");
    }
    const text = await metrics.render();
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/article\/:id",status="200"\} 2$/m,
    );
    expect(text).toMatch(/^page_cache_requests_total\{outcome="hit"\} 2$/m);
  });

  it("carry a request id and leave one log line each, as the app's answers do", async () => {
    pageCache.set("/about-us", await page([["content-type", "text/html"]]));
    const ids: string[] = [];
    const asked: Record<string, string>[] = [{}, { "If-None-Match": '"other"' }];
    for (const headers of asked) {
      const answer = await fetch(`${base}/about-us`, { headers });
      expect(answer.headers.get("x-cache")).toBe("HIT");
      expect(await answer.text()).toBe("<p>kept</p>");
      ids.push(answer.headers.get("x-request-id") ?? "");
    }
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    // The line is written when the response finishes, which the client may see first.
    const linesOf = (id: string) => lines.filter((l) => l.req?.id === id);
    for (let wait = 0; ids.some((id) => linesOf(id).length === 0) && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const id of ids) {
      expect(linesOf(id)).toEqual([
        expect.objectContaining({
          msg: "request completed",
          req: expect.objectContaining({ id, path: "/about-us" }),
          res: { status: 200 },
        }),
      ]);
    }
  });

  it("are logged when they cannot be sent, and the app answers instead", async () => {
    // A header Node refuses to write.
    pageCache.set("/broken", await page([["x-note", "two\nlines"]]));
    const answer = await fetch(`${base}/broken`);
    expect(answer.status).toBe(503);
    expect(await answer.text()).toBe("from the app");
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: "a cached page could not be sent",
        path: "/broken",
        err: expect.objectContaining({ message: expect.stringMatching(/x-note/) }),
      }),
    );
  });
});
