import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLogging, SERVER_ERROR_MESSAGE, serverError } from "./app";

interface Line {
  level: number;
  msg: string;
  req?: { path: string; client: string };
  res?: { status: number };
  err?: { message: string; stack?: string };
}

const lines: Line[] = [];
const logger = pino(
  { level: "info" },
  { write: (line: string) => void lines.push(JSON.parse(line)) },
);
let server: http.Server;
let base = "";

beforeAll(async () => {
  const app = express();
  app.use(requestLogging(logger));
  app.get("/ok", (_req, res) => void res.send("ok"));
  app.get("/gone", (_req, res) => void res.status(404).send("gone"));
  app.get("/away", (_req, res) => void res.status(503).send("Failed to load news data"));
  app.get("/broken", () => {
    throw new Error("the template is broken");
  });
  app.use(serverError());
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The log line of one request to `path`, found by the id the response carries. */
async function logged(path: string): Promise<Line & { req: { id: string }; body: string }> {
  const response = await fetch(`${base}${path}?email=reader%40example.com`);
  const body = await response.text();
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  // The line is written when the response finishes, which the client may see first.
  const find = () => lines.find((l) => (l.req as { id?: string } | undefined)?.id === id);
  for (let wait = 0; !find() && wait < 100; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const line = find();
  if (!line) throw new Error(`no log line for ${path}`);
  return { ...(line as Line & { req: { id: string } }), body };
}

describe("request logs", () => {
  it("carry the path without its query and a masked address, at a level by status", async () => {
    const ok = await logged("/ok");
    expect(ok).toMatchObject({ level: 30, msg: "request completed", res: { status: 200 } });
    expect(ok.req).toMatchObject({ path: "/ok", client: "127.0.0.0" });
    expect(JSON.stringify(ok)).not.toContain("example.com");
    expect(await logged("/gone")).toMatchObject({ level: 40, res: { status: 404 } });
  });

  it("log a 5xx answered on purpose as an error without a made-up error and stack", async () => {
    const line = await logged("/away");
    expect(line).toMatchObject({ level: 50, msg: "request completed", res: { status: 503 } });
    expect(line.err).toBeUndefined();
  });

  it("keep a real error with its message and stack; the reader gets a reference, not the error", async () => {
    const line = await logged("/broken");
    expect(line.body).toBe(`${SERVER_ERROR_MESSAGE}\n\nReference: ${line.req.id}\n`);
    expect(line).toMatchObject({ level: 50, msg: "request errored", res: { status: 500 } });
    expect(line.err?.message).toBe("the template is broken");
    expect(line.err?.stack).toContain("request-logging.test.ts");
  });
});
