import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHOTOS_LAST_MODIFIED, startPhotoHost, type PhotoHost } from "./photo-host";
import { ensurePhotos, type Photo } from "./photos";

describe("the photo host", () => {
  let dir: string;
  let photos: Photo[];
  let host: PhotoHost;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "photo-host-test-"));
    photos = await ensurePhotos(
      [
        { name: "one", width: 320, height: 200, seed: 1, grain: 6, quality: 85 },
        { name: "two", width: 200, height: 320, seed: 2, grain: 6, quality: 85 },
      ],
      dir,
    );
    host = await startPhotoHost(photos);
  });
  afterAll(async () => {
    await host.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("serves each photo as a JPEG with validators, from another origin than 127.0.0.1:<site port>", async () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.\d+:\d+$/);
    const [one] = photos;
    if (!one) throw new Error("no photo");
    const response = await fetch(host.url(one));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get("last-modified")).toBe(PHOTOS_LAST_MODIFIED);
    expect(Number(response.headers.get("content-length"))).toBe(one.bytes);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await fs.readFile(one.file))).toBe(true);
  });

  it("answers 304 to a matching If-None-Match or a later If-Modified-Since", async () => {
    const [one, two] = photos;
    if (!one || !two) throw new Error("no photos");
    const first = await fetch(host.url(one));
    await first.arrayBuffer();
    const etag = first.headers.get("etag") ?? "";
    const byEtag = await fetch(host.url(one), { headers: { "if-none-match": `W/${etag}` } });
    expect(byEtag.status).toBe(304);
    expect(byEtag.headers.get("etag")).toBe(etag);
    expect((await byEtag.arrayBuffer()).byteLength).toBe(0);
    // Another photo's ETag does not match, and If-None-Match wins over If-Modified-Since.
    const otherEtag = await fetch(host.url(two), {
      headers: { "if-none-match": etag, "if-modified-since": PHOTOS_LAST_MODIFIED },
    });
    expect(otherEtag.status).toBe(200);
    await otherEtag.arrayBuffer();
    const byDate = await fetch(host.url(one), {
      headers: { "if-modified-since": PHOTOS_LAST_MODIFIED },
    });
    expect(byDate.status).toBe(304);
    const earlier = new Date(Date.parse(PHOTOS_LAST_MODIFIED) - 1000).toUTCString();
    const changedSince = await fetch(host.url(one), { headers: { "if-modified-since": earlier } });
    expect(changedSince.status).toBe(200);
    await changedSince.arrayBuffer();
  });

  it("counts requests and bytes sent, and answers 404 for anything else", async () => {
    const [, two] = photos;
    if (!two) throw new Error("no photo");
    const before = host.bytesSent();
    const path = new URL(host.url(two)).pathname;
    const count = host.requests.get(path) ?? 0;
    await (await fetch(host.url(two))).arrayBuffer();
    expect(host.requests.get(path)).toBe(count + 1);
    expect(host.bytesSent() - before).toBe(two.bytes);
    const missing = await fetch(`${host.origin}/photos/nothing.jpg`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const post = await fetch(host.url(two), { method: "POST" });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });
});
