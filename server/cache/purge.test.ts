import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { createMetrics } from "../http/metrics";
import { cloudflarePurger } from "./cloudflare";
import { purgerFor } from "./configured";
import { fastlyPurger } from "./fastly";
import { noPurger, PurgeError, purgeQueue, purgeRequest, type PurgeProvider } from "./purge";

/**
 * The purgers against a local server standing in for Fastly's and Cloudflare's APIs: the requests
 * they send, in batches, tried again with a growing wait when the provider fails or is busy,
 * counted in /metrics, and never with their token in the logs.
 */

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const TOKEN = "secret-token-0123456789abcdef";
let server: http.Server;
let api: string;
let received: Received[] = [];
/** What the next requests are answered: a status each, then 200 for all. */
let answers: number[] = [];
/** The Retry-After of a 429: seconds, or an HTTP date. */
let retryAfter = "3";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const status = answers.shift() ?? 200;
      const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/json" };
      if (status === 429) headers["Retry-After"] = retryAfter;
      res
        .writeHead(status, headers)
        .end(JSON.stringify(status === 200 ? { success: true, status: "ok" } : { error: "busy" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  received = [];
  answers = [];
  retryAfter = "3";
});

/** A logger writing to `lines`. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

const keys = (count: number, prefix = "article-") =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe("Fastly", () => {
  it("POSTs batches of up to 256 keys to the service's purge, with its token and soft purge", async () => {
    const provider = fastlyPurger({ apiUrl: api, serviceId: "svc 1", token: TOKEN, soft: true });
    const sleeps: number[] = [];
    const purger = purgeQueue(provider, {
      logger: capturedLogger().logger,
      settleMs: 0,
      sleep: async (ms) => void sleeps.push(ms),
    });
    purger.purge(keys(300));
    purger.purge(["home", "article-3"]);
    await purger.idle();
    expect(received).toHaveLength(2);
    for (const request of received) {
      expect(request.method).toBe("POST");
      expect(request.url).toBe("/service/svc%201/purge");
      expect(request.headers["fastly-key"]).toBe(TOKEN);
      expect(request.headers["fastly-soft-purge"]).toBe("1");
      expect(request.headers.accept).toBe("application/json");
      expect(request.body).toBe("");
    }
    const sent = received.map((r) => String(r.headers["surrogate-key"]).split(" "));
    // article-3 went out in the first batch before it was named again: it goes again.
    expect(sent.map((batch) => batch.length)).toEqual([256, 46]);
    expect(sent[1]).toEqual([...keys(300).slice(256), "home", "article-3"]);
    expect(sleeps).toEqual([]);
  });

  it("sends no soft purge header unless asked", async () => {
    const provider = fastlyPurger({ apiUrl: api, serviceId: "svc", token: TOKEN, soft: false });
    await provider.send(["home"]);
    expect(received[0]?.headers["fastly-soft-purge"]).toBeUndefined();
    expect(received[0]?.headers["surrogate-key"]).toBe("home");
  });
});

describe("Cloudflare", () => {
  it("POSTs the tags as JSON to the zone's purge_cache, 100 a request, with a bearer token", async () => {
    const provider = cloudflarePurger({ apiUrl: api, zoneId: "zone1", token: TOKEN });
    const purger = purgeQueue(provider, { logger: capturedLogger().logger, settleMs: 0 });
    purger.purge(keys(130));
    await purger.idle();
    expect(received.map((r) => r.url)).toEqual([
      "/zones/zone1/purge_cache",
      "/zones/zone1/purge_cache",
    ]);
    for (const request of received) {
      expect(request.method).toBe("POST");
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.headers["content-type"]).toBe("application/json");
    }
    const bodies = received.map((r) => JSON.parse(r.body) as { tags: string[] });
    expect(bodies.map((b) => b.tags.length)).toEqual([100, 30]);
    expect(bodies[0]?.tags.slice(0, 2)).toEqual(["article-0", "article-1"]);
    expect(Object.keys(bodies[0] ?? {})).toEqual(["tags"]);
  });
});

describe("the purge queue", () => {
  it("tries again after 500 and 429 with a growing wait (Retry-After when longer), counts and logs without the token", async () => {
    const { logger, lines } = capturedLogger();
    const metrics = createMetrics(async () => 0);
    const sleeps: number[] = [];
    const purger = purgeQueue(cloudflarePurger({ apiUrl: api, zoneId: "zone1", token: TOKEN }), {
      logger,
      settleMs: 0,
      firstRetryMs: 1_000,
      sleep: async (ms) => void sleeps.push(ms),
      observe: (provider, outcome, count) => metrics.observePurge(provider, outcome, count),
    });
    answers = [500, 429, 503];
    purger.purge(["home", "feeds"]);
    await purger.idle();
    expect(received).toHaveLength(4);
    // 1 s, then 2 s (Retry-After: 3 asks for 3), then 4 s.
    expect(sleeps).toEqual([1_000, 3_000, 4_000]);
    const text = await metrics.render();
    expect(text).toContain('cache_purge_requests_total{provider="cloudflare",outcome="retry"} 3');
    expect(text).toContain('cache_purge_requests_total{provider="cloudflare",outcome="ok"} 1');
    expect(text).toContain('cache_purge_keys_total{provider="cloudflare"} 2');
    expect(lines.join("")).toContain("cache purge failed, trying again");
    expect(lines.join("")).not.toContain(TOKEN);
  });

  it("reads a Retry-After given as an HTTP date", async () => {
    const sleeps: number[] = [];
    const purger = purgeQueue(cloudflarePurger({ apiUrl: api, zoneId: "zone1", token: TOKEN }), {
      logger: capturedLogger().logger,
      settleMs: 0,
      firstRetryMs: 1_000,
      sleep: async (ms) => void sleeps.push(ms),
    });
    retryAfter = new Date(Date.now() + 20_000).toUTCString();
    answers = [429];
    purger.purge(["home"]);
    await purger.idle();
    expect(received).toHaveLength(2);
    // 20 s from now, in whole seconds of the date: more than the 1 s of the first retry.
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(18_000);
    expect(sleeps[0]).toBeLessThanOrEqual(20_000);
  });

  it("gives up after its tries, logs it once at error level and counts it failed; a 4xx is not retried", async () => {
    const { logger, lines } = capturedLogger();
    const metrics = createMetrics(async () => 0);
    const sleeps: number[] = [];
    const options = {
      logger,
      settleMs: 0,
      attempts: 3,
      sleep: async (ms: number) => void sleeps.push(ms),
      observe: metrics.observePurge,
    };
    const fastly = fastlyPurger({ apiUrl: api, serviceId: "svc", token: TOKEN, soft: false });
    answers = [500, 500, 500];
    const purger = purgeQueue(fastly, options);
    purger.purge(["home"]);
    await purger.idle();
    expect(received).toHaveLength(3);
    expect(sleeps).toEqual([1_000, 2_000]);

    answers = [403];
    purger.purge(["feeds"]);
    await purger.idle();
    expect(received).toHaveLength(4);
    const text = await metrics.render();
    expect(text).toContain('cache_purge_requests_total{provider="fastly",outcome="failed"} 2');
    expect(text).toContain('cache_purge_requests_total{provider="fastly",outcome="retry"} 2');
    const errors = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(errors.filter((line) => line.level === 50)).toHaveLength(2);
    expect(lines.join("")).not.toContain(TOKEN);
  });

  it("returns at once: a provider that hangs holds up nobody", async () => {
    let release!: () => void;
    const hanging: PurgeProvider = {
      name: "hanging",
      batchSize: 10,
      send: () => new Promise<void>((resolve) => (release = resolve)),
    };
    const purger = purgeQueue(hanging, { logger: capturedLogger().logger, settleMs: 0 });
    const started = performance.now();
    purger.purge(["home"]);
    expect(performance.now() - started).toBeLessThan(50);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await purger.idle();
  });

  it("waits a moment before sending, so every web process has emptied its own cache", async () => {
    const sleeps: number[] = [];
    const purger = purgeQueue(
      fastlyPurger({ apiUrl: api, serviceId: "svc", token: TOKEN, soft: false }),
      { logger: capturedLogger().logger, sleep: async (ms) => void sleeps.push(ms) },
    );
    purger.purge(["home"]);
    await purger.idle();
    expect(sleeps).toEqual([1_000]);
  });
});

describe("an error answer", () => {
  it("says how it starts without reading the rest of its body", async () => {
    // A provider's error page that never ends: the first 4 KB, then a line every 50 ms.
    let closed = false;
    const endless = http.createServer((_req, res) => {
      res.writeHead(503, { "Content-Type": "text/html" });
      res.write(`<h1>Down</h1>\n${"x".repeat(4096)}`);
      const more = setInterval(() => res.write("more\n"), 50);
      res.on("close", () => {
        clearInterval(more);
        closed = true;
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
    const { port } = endless.address() as AddressInfo;
    try {
      const error = await purgeRequest("Fastly", `http://127.0.0.1:${port}/`, {}).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PurgeError);
      expect((error as PurgeError).message).toBe(
        `Fastly answered 503: <h1>Down</h1> ${"x".repeat(186)}`,
      );
      await expect.poll(() => closed).toBe(true);
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});

describe("PURGER", () => {
  it("chooses the purger and refuses a provider without its settings", () => {
    const env = { PURGER: "cloudflare", CLOUDFLARE_ZONE_ID: "z", CLOUDFLARE_API_TOKEN: TOKEN };
    const config = parseConfig(env);
    expect(config.purge).toEqual({
      kind: "cloudflare",
      apiUrl: "https://api.cloudflare.com/client/v4",
      zoneId: "z",
      token: TOKEN,
    });
    expect(parseConfig({}).purge).toEqual({ kind: "none" });
    expect(purgerFor({ kind: "none" }, { logger: capturedLogger().logger })).toBe(noPurger);
    expect(() => parseConfig({ PURGER: "fastly", FASTLY_API_TOKEN: TOKEN })).toThrow(
      "FASTLY_SERVICE_ID must be set when PURGER is fastly",
    );
    expect(() => parseConfig({ PURGER: "varnish" })).toThrow("VARNISH_URLS must be set");
    expect(() => parseConfig({ PURGER: "varnish", VARNISH_URLS: "ftp://x" })).toThrow(
      "VARNISH_URLS must be comma-separated Varnish addresses",
    );
    expect(
      parseConfig({ PURGER: "varnish", VARNISH_URLS: "http://10.0.0.1:6081/, http://10.0.0.2" })
        .purge,
    ).toEqual({ kind: "varnish", urls: ["http://10.0.0.1:6081", "http://10.0.0.2"] });
    expect(() => parseConfig({ PURGER: "akamai" })).toThrow(
      "PURGER must be none, varnish, fastly or cloudflare",
    );
  });
});
