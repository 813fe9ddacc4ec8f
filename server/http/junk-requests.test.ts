import http from "node:http";
import path from "node:path";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabases } from "../db/test-databases";
const ALLOWED_METHODS = "GET, HEAD, POST";
import { startTestApp } from "./test-app";

/**
 * The requests of an outside scan (wapiti, sqlmap) over the whole route table: junk in a route's
 * parameters or query is a 4xx, never a 5xx that looks like an outage, and leaves one warning in
 * the JSON log, never an error or a stack trace on stderr.
 */

interface Line {
  level: number;
  msg: string;
  err?: unknown;
}
const lines: Line[] = [];
const logger = pino(
  { level: "info" },
  { write: (line: string) => void lines.push(JSON.parse(line)) },
);
const ERROR_LEVEL = 50;

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let build: ServerBuild;
const stderr = vi.spyOn(console, "error");

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  app = await startTestApp(handle, {}, logger);
  build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
});

afterAll(async () => {
  await app?.close();
  await handle?.close();
});

/** Every route's full path pattern, from the production build's route table. */
function routePatterns(): string[] {
  const full = (id: string): string => {
    const route = build.routes[id];
    if (!route) return "";
    const parent = route.parentId ? full(route.parentId) : "";
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  return [...new Set(Object.keys(build.routes).map((id) => `/${full(id)}`.replace(/\/+/g, "/")))];
}

/** A route's pattern with every parameter (and a splat) given `value`, already %-encoded. */
function withParams(pattern: string, value: string): string {
  return pattern.replace(/:\w+\??/g, value).replace(/\*$/, value);
}

const HOSTILE_PARAMS = [
  "%00",
  "abc%00def",
  "%0d%0a",
  "abc%0d%0aSet-Cookie:x=1",
  "%ff%fe",
  "x".repeat(3000),
];
const QUERY_NAMES = ["q", "year", "all", "page", "category", "message", "utm_source"];

/** Sent with Node's own client, which sends any method as it is (fetch refuses TRACE). */
function send(
  url: string,
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${app.base}${url}`, { method }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

function expectQuiet(since: number, what: string) {
  const errors = lines.slice(since).filter((line) => line.level >= ERROR_LEVEL);
  expect(errors, `${what} logged an error`).toEqual([]);
  expect(stderr, `${what} printed to stderr`).not.toHaveBeenCalled();
}

describe("junk in an address", () => {
  it("reads the route table with parameters to try", () => {
    const patterns = routePatterns();
    expect(patterns.filter((p) => p.includes(":")).length).toBeGreaterThanOrEqual(3);
    expect(patterns).toContain("/article/:id");
  });

  it("is a 4xx in every route parameter, for GET and HEAD", async () => {
    for (const pattern of routePatterns()) {
      for (const value of HOSTILE_PARAMS) {
        for (const method of ["GET", "HEAD"]) {
          const url = withParams(pattern, value);
          const since = lines.length;
          const response = await send(url, method);
          expect(response.status, `${method} ${url}`).toBeLessThan(500);
          expectQuiet(since, `${method} ${url}`);
        }
      }
    }
  });

  it("with a NUL in it names no page: 404, and the database is never asked", async () => {
    for (const url of ["/article/%00", "/article/abc%00def", "/blog/%00", "/local-news%00"]) {
      expect((await send(url)).status, url).toBe(404);
      expect((await send(url, "HEAD")).status, url).toBe(404);
    }
    // The site is still ready: nothing took it for a database outage.
    expect((await send("/readyz")).status).toBe(200);
  });

  it("is a 4xx in every query parameter of every page", { timeout: 180_000 }, async () => {
    const pages = routePatterns().map((p) => withParams(p, "sample"));
    for (const page of pages) {
      for (const value of ["%00", "a%0d%0ab", "%ff", "1'%20OR%20'1'='1", "x".repeat(2000)]) {
        const url = `${page}?${QUERY_NAMES.map((name) => `${name}=${value}`).join("&")}`;
        const since = lines.length;
        const response = await send(url);
        expect(response.status, url).toBeLessThan(500);
        expectQuiet(since, url);
      }
    }
  });
});

describe("methods", () => {
  it.each(["TRACE", "PUT", "DELETE", "PATCH", "PROPFIND"])(
    "%s answers 405 with Allow",
    async (method) => {
      for (const url of ["/", "/article/x", "/faq", "/no/such/page"]) {
        const since = lines.length;
        const response = await send(url, method);
        expect(response.status, `${method} ${url}`).toBe(405);
        expect(response.headers.allow).toBe(ALLOWED_METHODS);
        expectQuiet(since, `${method} ${url}`);
      }
    },
  );

  it("OPTIONS is told the methods", async () => {
    const response = await send("/", "OPTIONS");
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe(ALLOWED_METHODS);
  });

  it("a POST to a page without a form is a 405 and one warning, no stack", async () => {
    const since = lines.length;
    const response = await fetch(`${app.base}/faq`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    await response.arrayBuffer();
    expect(response.status).toBe(405);
    expectQuiet(since, "POST /faq");
    const warnings = lines.slice(since).filter((line) => line.level === 40);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(warnings)).not.toMatch(/\n\s+at /);
  });
});

describe("HEAD", () => {
  it("is answered from the page cache like GET, with the same headers and no body", async () => {
    // An address no other test asked for, so the first HEAD finds it cold.
    const page = `${app.base}/faq?from=head`;
    const cold = await fetch(page, { method: "HEAD" });
    expect(cold.status).toBe(200);
    expect(cold.headers.get("x-cache")).toBe("MISS");
    const get = await fetch(page, { headers: { "Accept-Encoding": "identity" } });
    const body = await get.arrayBuffer();
    expect(get.headers.get("x-cache")).toBe("HIT");
    for (let i = 0; i < 3; i++) {
      const head = await fetch(page, {
        method: "HEAD",
        headers: { "Accept-Encoding": "identity" },
      });
      expect(head.headers.get("x-cache")).toBe("HIT");
      expect(head.headers.get("content-length")).toBe(String(body.byteLength));
      expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
