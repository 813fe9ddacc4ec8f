import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { fetchPicture, refusedAddress, type PictureFetchOptions } from "./fetch";

const PICTURE = Buffer.from("not really a picture, bytes are bytes here");

let server: FixtureServer;
const local: PictureFetchOptions = { userAgent: "NewsTest/1.0", allowPrivateAddresses: true };

/** A name server that answers every name with one address, counting the questions. */
function answering(address: string) {
  const asked: string[] = [];
  const lookup: net.LookupFunction = (hostname, _options, callback) => {
    asked.push(hostname);
    callback(null, [{ address, family: address.includes(":") ? 6 : 4 }]);
  };
  return { lookup, asked };
}

beforeAll(async () => {
  server = await startFixtureServer();
  server.route("/photo.jpg", (req, res) => {
    if (req.headers["if-none-match"] === '"v1"') return res.writeHead(304).end();
    res.writeHead(200, { etag: '"v1"', "last-modified": "Mon, 02 Jun 2025 10:00:00 GMT" });
    res.end(PICTURE);
  });
  server.route("/moved", (_req, res) => res.writeHead(302, { location: "/photo.jpg" }).end());
  server.route("/to-metadata", (_req, res) =>
    res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end(),
  );
  server.route("/to-named", (_req, res) =>
    res.writeHead(301, { location: "http://pictures.example.net/photo.jpg" }).end(),
  );
  server.route("/to-file", (_req, res) =>
    res.writeHead(302, { location: "file:///etc/passwd" }).end(),
  );
  server.route("/loop", (_req, res) => res.writeHead(302, { location: "/loop" }).end());
  server.route("/large-declared", (_req, res) => {
    res.writeHead(200, { "content-length": String(2 * 1024 * 1024) });
    res.end(Buffer.alloc(2 * 1024 * 1024));
  });
  server.route("/large-streamed", (_req, res) => {
    res.writeHead(200);
    const chunk = Buffer.alloc(64 * 1024);
    const timer = setInterval(() => res.write(chunk), 1);
    res.on("close", () => clearInterval(timer));
  });
  server.route("/silent", () => undefined);
  server.route("/drip", (_req, res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write(Buffer.alloc(1)), 100);
    res.on("close", () => clearInterval(timer));
  });
});

afterAll(() => server.close());

describe("refusedAddress", () => {
  it.each([
    ["93.184.215.14", false, null],
    ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", false, null],
    ["127.0.0.1", false, "loopback"],
    ["::1", false, "loopback"],
    ["::ffff:127.0.0.1", false, "loopback"],
    ["10.1.2.3", false, "private"],
    ["172.16.0.1", false, "private"],
    ["192.168.1.1", false, "private"],
    ["169.254.10.10", false, "linkLocal"],
    ["fe80::1", false, "linkLocal"],
    ["fd12:3456::1", false, "uniqueLocal"],
    ["100.64.0.1", false, "carrierGradeNat"],
    ["0.0.0.0", false, "unspecified"],
    ["224.0.0.1", false, "multicast"],
    // IPv6 addresses that carry an IPv4 address are judged as the IPv4 address they reach.
    ["::127.0.0.1", false, "loopback"],
    ["::7f00:1", false, "loopback"],
    ["::a00:1", false, "private"],
    ["::ffff:7f00:1", false, "loopback"],
    ["::ffff:0:7f00:1", false, "loopback"],
    ["::ffff:0:c0a8:101", false, "private"],
    ["64:ff9b::7f00:1", false, "loopback"],
    ["64:ff9b::127.0.0.1", false, "loopback"],
    ["64:ff9b::a00:1", false, "private"],
    ["64:ff9b::a9fe:a9fe", true, "metadata"],
    ["::a9fe:a9fe", true, "metadata"],
    ["::ffff:a9fe:a9fe", true, "metadata"],
    ["::6440:1", false, "carrierGradeNat"],
    ["::7f00:1", true, null],
    ["::808:808", false, null],
    ["64:ff9b::808:808", false, null],
    // Where the IPv4 address sits depends on the network (RFC 8215, 6to4, Teredo): refused whole.
    ["64:ff9b:1::a00:1", false, "rfc6052"],
    ["64:ff9b:1::808:808", false, "rfc6052"],
    ["2002:7f00:1::1", false, "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false, "teredo"],
    ["::", false, "unspecified"],
    ["169.254.169.254", false, "metadata"],
    ["fd00:ec2::254", false, "metadata"],
    ["10.1.2.3", true, null],
    ["127.0.0.1", true, null],
    ["169.254.169.254", true, "metadata"],
    ["fd00:ec2::254", true, "metadata"],
    ["100.100.100.200", true, "metadata"],
    // EKS pod credentials, and Azure's WireServer, a public address only Azure's machines reach.
    ["169.254.170.23", true, "metadata"],
    ["fd00:ec2::23", true, "metadata"],
    ["168.63.129.16", false, "metadata"],
    ["0.0.0.0", true, "unspecified"],
  ])("%s (private allowed: %s) → %s", (address, allowPrivate, expected) => {
    const reason = refusedAddress(address, allowPrivate);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toContain(expected);
  });
});

describe("fetchPicture", () => {
  it("fetches the bytes with our User-Agent and the validators", async () => {
    const result = await fetchPicture(server.url("/moved"), local);
    expect(result).toEqual({
      kind: "ok",
      body: PICTURE,
      etag: '"v1"',
      lastModified: "Mon, 02 Jun 2025 10:00:00 GMT",
      finalUrl: server.url("/photo.jpg"),
    });
    expect(server.requests.at(-1)?.headers["user-agent"]).toBe("NewsTest/1.0");
  });

  it("answers not-modified to a conditional request the server says is current", async () => {
    expect(await fetchPicture(server.url("/photo.jpg"), { ...local, etag: '"v1"' })).toEqual({
      kind: "not-modified",
    });
  });

  it("refuses a loopback address unless private addresses are allowed", async () => {
    const before = server.hits("/photo.jpg");
    const result = await fetchPicture(server.url("/photo.jpg"), { userAgent: "NewsTest/1.0" });
    expect(result).toMatchObject({ kind: "error", error: expect.stringContaining("loopback") });
    expect(server.hits("/photo.jpg")).toBe(before);
  });

  it("refuses a name that resolves to a loopback address, checked at connection", async () => {
    const before = server.hits("/photo.jpg");
    const port = new URL(server.url("/")).port;
    const { lookup, asked } = answering("127.0.0.1");
    const named = await fetchPicture(`http://pictures.example.net:${port}/photo.jpg`, {
      userAgent: "NewsTest/1.0",
      lookup,
    });
    expect(named).toMatchObject({ kind: "error", error: expect.stringContaining("loopback") });
    expect(asked).toEqual(["pictures.example.net"]);
    const localhost = await fetchPicture(`http://localhost:${port}/photo.jpg`, {
      userAgent: "NewsTest/1.0",
    });
    expect(localhost).toMatchObject({ kind: "error", error: expect.stringContaining("loopback") });
    expect(server.hits("/photo.jpg")).toBe(before);
  });

  it.each(["[::127.0.0.1]", "[::7f00:1]", "[::ffff:127.0.0.1]", "[64:ff9b::127.0.0.1]"])(
    "refuses %s in the address, the loopback address it carries",
    async (literal) => {
      const before = server.hits("/photo.jpg");
      const port = new URL(server.url("/")).port;
      const result = await fetchPicture(`http://${literal}:${port}/photo.jpg`, {
        userAgent: "NewsTest/1.0",
      });
      expect(result).toMatchObject({ kind: "error", error: expect.stringContaining("loopback") });
      expect(server.hits("/photo.jpg")).toBe(before);
    },
  );

  it.each(["::7f00:1", "::ffff:7f00:1", "64:ff9b::7f00:1"])(
    "refuses a name that resolves to %s, the loopback address it carries",
    async (address) => {
      const port = new URL(server.url("/")).port;
      const { lookup, asked } = answering(address);
      const result = await fetchPicture(`http://pictures.example.net:${port}/photo.jpg`, {
        userAgent: "NewsTest/1.0",
        lookup,
      });
      expect(result).toMatchObject({ kind: "error", error: expect.stringContaining("loopback") });
      expect(asked).toEqual(["pictures.example.net"]);
    },
  );

  it("checks every redirect hop", async () => {
    expect(await fetchPicture(server.url("/to-metadata"), local)).toMatchObject({
      kind: "error",
      error: expect.stringContaining("169.254.169.254 is a cloud metadata address"),
    });
    const { lookup } = answering("fd00:ec2::254");
    expect(await fetchPicture(server.url("/to-named"), { ...local, lookup })).toMatchObject({
      kind: "error",
      error: expect.stringContaining("metadata"),
    });
    expect(await fetchPicture(server.url("/to-file"), local)).toMatchObject({
      kind: "error",
      error: "Not an http(s) address: file:///etc/passwd",
    });
  });

  it("follows at most five redirects", async () => {
    expect(await fetchPicture(server.url("/loop"), local)).toMatchObject({
      kind: "error",
      error: "More than 5 redirects",
    });
    expect(server.hits("/loop")).toBe(6);
  });

  it.each(["/large-declared", "/large-streamed"])(
    "stops a body past the cap (%s)",
    async (path) => {
      const result = await fetchPicture(server.url(path), { ...local, maxBytes: 1024 * 1024 });
      expect(result).toEqual({
        kind: "error",
        status: 200,
        error: `Body larger than ${1024 * 1024} bytes`,
      });
    },
  );

  it("gives up after the total timeout", async () => {
    const started = Date.now();
    const result = await fetchPicture(server.url("/silent"), { ...local, timeoutMs: 300 });
    expect(result).toEqual({ kind: "error", status: null, error: "Timed out after 0.3 s" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  // The whole request is timed, body included; it once read "Network error: aborted".
  it("gives up on a body that drips in, and says it timed out", async () => {
    const result = await fetchPicture(server.url("/drip"), { ...local, timeoutMs: 500 });
    expect(result).toEqual({ kind: "error", status: null, error: "Timed out after 0.5 s" });
  });
});
