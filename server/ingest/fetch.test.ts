import { brotliCompressSync, createGzip, gzipSync } from "node:zlib";
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRetryAfter } from "../lib/fetch";
import { fetchFeed, type FetchOptions } from "./fetch";
import { rssFeed, startFixtureServer, type FixtureServer } from "./test-server";

const FEED = rssFeed("Fixture", [{ guid: "a", title: "A" }]);
const options: FetchOptions = {
  // Generous: the machine running the tests may be busy; the timeout tests set their own.
  timeoutMs: 10_000,
  maxRedirects: 5,
  maxBytes: 64 * 1024,
  userAgent: "Test reader (+http://127.0.0.1)",
};

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  server.route("/feed.xml", (req, res) => {
    if (req.headers["if-none-match"] === '"v1"') {
      res.writeHead(304, { "cache-control": "max-age=120" }).end();
      return;
    }
    res
      .writeHead(200, {
        "content-type": "application/rss+xml",
        etag: '"v1"',
        "last-modified": "Mon, 02 Jun 2025 10:00:00 GMT",
        "cache-control": "public, max-age=300",
      })
      .end(FEED);
  });
  server.route("/gzip.xml", (_req, res) => {
    res
      .writeHead(200, { "content-type": "application/xml", "content-encoding": "gzip" })
      .end(gzipSync(FEED));
  });
  server.route("/br.xml", (_req, res) => {
    res
      .writeHead(200, { "content-type": "application/xml", "content-encoding": "br" })
      .end(brotliCompressSync(FEED));
  });
  for (let i = 1; i <= 7; i++) {
    server.route(`/hop${i}`, (_req, res) => res.writeHead(301, { location: `/hop${i + 1}` }).end());
  }
  server.route("/hop8", (_req, res) => res.writeHead(200).end(FEED));
  server.route("/moved", (_req, res) => res.writeHead(302, { location: "/hop6" }).end());
  server.route("/loop-a", (_req, res) => res.writeHead(302, { location: "/loop-b" }).end());
  server.route("/loop-b", (_req, res) => res.writeHead(302, { location: "/loop-a" }).end());
  server.route("/to-private", (_req, res) =>
    res.writeHead(302, { location: "http://10.0.0.1/admin/feed" }).end(),
  );
  server.route("/to-metadata", (_req, res) =>
    res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  );
  server.route("/to-file", (_req, res) =>
    res.writeHead(302, { location: "file:///etc/passwd" }).end(),
  );
  server.route("/hang", () => {
    // Never answers.
  });
  server.route("/drip", (_req, res) => {
    res.writeHead(200, { "content-type": "application/xml" });
    res.write("<rss>");
    const timer = setInterval(() => res.write(" "), 100);
    res.on("close", () => clearInterval(timer));
  });
  server.route("/huge", (_req, res) => {
    res.writeHead(200, { "content-type": "application/xml" });
    const chunk = "x".repeat(16 * 1024);
    let sent = 0;
    const push = () => {
      while (sent < 200 && res.write(chunk)) sent++;
      if (sent < 200) res.once("drain", push);
      else res.end();
    };
    push();
  });
  server.route("/huge-declared", (_req, res) => {
    res.writeHead(200, {
      "content-type": "application/xml",
      "content-length": String(10 * 1024 * 1024),
    });
    res.write("<rss>");
  });
  // A gzip bomb: a gigabyte of zeros, a megabyte on the wire, compressed as it is sent.
  server.route("/bomb.xml", (_req, res) => {
    res.writeHead(200, { "content-type": "application/xml", "content-encoding": "gzip" });
    const gzip = createGzip();
    gzip.pipe(res);
    const zeros = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const push = () => {
      while (sent < 1024 && !res.destroyed && gzip.write(zeros)) sent++;
      if (res.destroyed) return;
      if (sent < 1024) gzip.once("drain", push);
      else gzip.end();
    };
    res.on("close", () => gzip.destroy());
    push();
  });
  server.route("/gone", (_req, res) => res.writeHead(410).end("gone"));
  server.route("/error", (_req, res) => res.writeHead(500).end("boom"));
  server.route("/busy", (_req, res) => res.writeHead(429, { "retry-after": "3600" }).end());
});
afterAll(() => server.close());

describe("fetchFeed over HTTP", () => {
  it("reads a feed and its validators, and sends a User-Agent naming the site", async () => {
    const result = await fetchFeed(server.url("/feed.xml"), options);
    expect(result).toMatchObject({
      kind: "ok",
      status: 200,
      contentType: "application/rss+xml",
      etag: '"v1"',
      lastModified: "Mon, 02 Jun 2025 10:00:00 GMT",
      maxAgeSeconds: 300,
    });
    expect(result.kind === "ok" && new TextDecoder().decode(result.body)).toBe(FEED);
    const request = server.requests.find((r) => r.path === "/feed.xml");
    expect(request?.headers["user-agent"]).toBe("Test reader (+http://127.0.0.1)");
    expect(request?.headers["accept-encoding"]).toContain("gzip");
  });

  it("sends the stored validators and reports 304 without a body", async () => {
    const result = await fetchFeed(server.url("/feed.xml"), { ...options, etag: '"v1"' });
    expect(result).toEqual({ kind: "not-modified", status: 304, maxAgeSeconds: 120 });
  });

  it.each(["/gzip.xml", "/br.xml"])("decompresses %s", async (p) => {
    const result = await fetchFeed(server.url(p), options);
    expect(result.kind === "ok" && new TextDecoder().decode(result.body)).toBe(FEED);
  });

  it("follows up to 5 redirects and reports where it ended", async () => {
    const result = await fetchFeed(server.url("/moved"), options);
    expect(result).toMatchObject({ kind: "ok", finalUrl: server.url("/hop8") });
  });

  it("stops after 5 redirects", async () => {
    expect(await fetchFeed(server.url("/hop1"), options)).toMatchObject({
      kind: "error",
      error: "More than 5 redirects",
    });
  });

  it("detects a redirect loop", async () => {
    expect(await fetchFeed(server.url("/loop-a"), options)).toMatchObject({
      kind: "error",
      error: `Redirect loop at ${server.url("/loop-a")}`,
    });
  });

  it("never follows a redirect off HTTP", async () => {
    expect(await fetchFeed(server.url("/to-file"), options)).toMatchObject({
      kind: "error",
      error: "Redirect to a non-HTTP address: file:///etc/passwd",
    });
  });

  // The feed's own address is the operator's; where it redirects is the feed host's.
  it("does not follow a public feed host's redirect into a private network", async () => {
    // The fixture server, taken for a public host: its name resolves to a public address here.
    const lookup = async (host: string) => [
      { address: host === "127.0.0.1" ? "93.184.216.34" : host },
    ];
    expect(await fetchFeed(server.url("/to-private"), { ...options, lookup })).toMatchObject({
      kind: "error",
      status: 302,
      error:
        "Redirect to a non-public address refused: http://10.0.0.1/admin/feed (10.0.0.1 is not a public address (private))",
    });
    // A feed on the site's own network may redirect within it (the hops above, on 127.0.0.1).
    expect(await fetchFeed(server.url("/moved"), options)).toMatchObject({ kind: "ok" });
  });

  it("never follows a redirect to a cloud metadata address, whatever the feed's address", async () => {
    expect(await fetchFeed(server.url("/to-metadata"), options)).toMatchObject({
      kind: "error",
      status: 302,
      error:
        "Redirect to a cloud metadata address refused: http://169.254.169.254/latest/meta-data/",
    });
  });

  it("times out a server that never answers", async () => {
    expect(await fetchFeed(server.url("/hang"), { ...options, timeoutMs: 300 })).toMatchObject({
      kind: "error",
      status: null,
      error: "Timed out after 0.3 s",
    });
  });

  it("times out a body that drips slowly: the limit covers the whole request", async () => {
    const result = await fetchFeed(server.url("/drip"), { ...options, timeoutMs: 500 });
    expect(result).toMatchObject({ kind: "error", error: "Timed out after 0.5 s" });
  });

  it("stops reading a body past the size cap", async () => {
    const result = await fetchFeed(server.url("/huge"), { ...options, maxBytes: 100 * 1024 });
    expect(result).toMatchObject({ kind: "error", error: "Body larger than 102400 bytes" });
  });

  it("stops inflating a compressed body at the size cap (a gzip bomb)", async () => {
    const result = await fetchFeed(server.url("/bomb.xml"), options);
    expect(result).toMatchObject({ kind: "error", error: `Body larger than ${64 * 1024} bytes` });
  });

  it("refuses a declared length past the cap without reading", async () => {
    const result = await fetchFeed(server.url("/huge-declared"), options);
    expect(result).toMatchObject({ kind: "error", error: `Body larger than ${64 * 1024} bytes` });
  });

  it.each([
    ["/gone", 410, "HTTP 410 Gone"],
    ["/error", 500, "HTTP 500 Internal Server Error"],
    ["/missing", 404, "HTTP 404 Not Found"],
  ])("reports %s as HTTP %i", async (p, status, error) => {
    expect(await fetchFeed(server.url(p), options)).toMatchObject({ kind: "error", status, error });
  });

  it("reads Retry-After from a 429", async () => {
    expect(await fetchFeed(server.url("/busy"), options)).toMatchObject({
      kind: "error",
      status: 429,
      retryAfterSeconds: 3600,
    });
  });

  it("reports a refused connection", async () => {
    const closed = await startFixtureServer();
    const url = closed.url("/feed.xml");
    await closed.close();
    expect(await fetchFeed(url, options)).toMatchObject({
      kind: "error",
      error: "Connection refused",
    });
  });

  /** A feed host whose `answer` gets each request's number (from 1) and how many connections it has seen. */
  async function hostAnswering(
    answer: (req: http.IncomingMessage, res: http.ServerResponse, request: number) => void,
  ) {
    const host = await startFixtureServer();
    const connections = new Set<unknown>();
    let requests = 0;
    host.route("/feed.xml", (req, res) => {
      connections.add(req.socket);
      answer(req, res, ++requests);
    });
    return { host, url: host.url("/feed.xml"), connections: () => connections.size };
  }

  it("sends a request once more on a new connection when the server dropped the kept-alive one", async () => {
    // The first request is answered and its connection kept; the second, sent over that connection, meets the
    // server closing it (as a server does with an idle connection just as the client reuses it).
    const { host, url, connections } = await hostAnswering((req, res, request) => {
      if (request === 2) req.socket.destroy();
      else res.writeHead(200, { "content-type": "application/rss+xml" }).end(FEED);
    });
    try {
      expect(await fetchFeed(url, options)).toMatchObject({ kind: "ok", status: 200 });
      expect(connections()).toBe(1);
      expect(await fetchFeed(url, options)).toMatchObject({ kind: "ok", status: 200 });
      expect(connections()).toBe(2);
    } finally {
      await host.close();
    }
  });

  it("reports a server that closes every connection without an answer, after a second try", async () => {
    const { host, url, connections } = await hostAnswering((req) => req.socket.destroy());
    try {
      expect(await fetchFeed(url, options)).toMatchObject({
        kind: "error",
        status: null,
        error: expect.stringMatching(
          /^(The server closed the connection|Connection reset by the server)$/,
        ),
      });
      expect(connections()).toBe(2);
    } finally {
      await host.close();
    }
  });

  it("reports a host that does not resolve", async () => {
    expect(await fetchFeed("http://no-such-host.invalid/feed.xml", options)).toMatchObject({
      kind: "error",
      error: "DNS lookup failed (ENOTFOUND)",
    });
  });
});

describe("fetchFeed from disk", () => {
  it("reads plain paths and file: URLs", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "feed-")), "f.xml");
    fs.writeFileSync(file, FEED);
    for (const source of [file, `file://${file}`]) {
      const result = await fetchFeed(source, options);
      expect(result.kind === "ok" && new TextDecoder().decode(result.body)).toBe(FEED);
    }
    expect(await fetchFeed(`${file}.missing`, options)).toMatchObject({ kind: "error" });
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Sun, 22 Nov 2026 13:00:00 GMT", now)).toBe(3600);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
