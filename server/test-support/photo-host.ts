/**
 * A publisher's picture host for the "real photos" mode (server/test-support/photos.ts): serves the photos at
 * `/photos/<name>.jpg` as a plain web server would, with `Content-Type: image/jpeg`, a strong ETag,
 * Last-Modified and a day of caching, and answers conditional requests with 304. It listens on
 * another loopback address than the site (127.0.0.2 where the system routes it, as Linux does),
 * else on another port of 127.0.0.1: either way another origin than the site's pages. It counts the
 * requests it answers, so a run can tell who fetched its photos (ingest once each, or every
 * reader's browser).
 */
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Photo } from "./photos";

export interface PhotoHost {
  /** `http://127.0.0.2:<port>`. */
  origin: string;
  /** The address of a photo on this host. */
  url(photo: Pick<Photo, "name">): string;
  /** Requests answered so far, by path (304s and 404s included). */
  requests: Map<string, number>;
  /** Bytes of photos sent so far (bodies of 200s). */
  bytesSent(): number;
  close(): Promise<void>;
}

/** When every photo was "published": a fixed date, so that Last-Modified is the same every run. */
export const PHOTOS_LAST_MODIFIED = new Date(Date.UTC(2026, 10, 14, 17, 41, 7)).toUTCString();

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(header: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((tag) => bare(tag) === bare(etag));
}

function listen(server: http.Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startPhotoHost(
  photos: readonly Photo[],
  options: { host?: string; port?: number } = {},
): Promise<PhotoHost> {
  const files = new Map<string, { bytes: Buffer; etag: string }>();
  for (const photo of photos) {
    files.set(`/photos/${photo.name}.jpg`, {
      bytes: await fs.readFile(photo.file),
      etag: `"${photo.sha256.slice(0, 32)}"`,
    });
  }
  const requests = new Map<string, number>();
  let sent = 0;
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://photo-host").pathname;
    requests.set(pathname, (requests.get(pathname) ?? 0) + 1);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    const file = files.get(pathname);
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const validators = {
      etag: file.etag,
      "last-modified": PHOTOS_LAST_MODIFIED,
      "cache-control": "public, max-age=86400",
    };
    const ifNoneMatch = req.headers["if-none-match"];
    const ifModifiedSince = req.headers["if-modified-since"];
    // If-Modified-Since counts only without If-None-Match (RFC 9110, 13.1.3).
    const notModified =
      ifNoneMatch !== undefined
        ? matchesEtag(ifNoneMatch, file.etag)
        : ifModifiedSince !== undefined &&
          Date.parse(ifModifiedSince) >= Date.parse(PHOTOS_LAST_MODIFIED);
    if (notModified) {
      res.writeHead(304, validators).end();
      return;
    }
    res.writeHead(200, {
      ...validators,
      "content-type": "image/jpeg",
      "content-length": file.bytes.byteLength,
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    sent += file.bytes.byteLength;
    res.end(file.bytes);
  });
  // Another loopback address where the system has one; else another port of 127.0.0.1.
  let address: AddressInfo;
  try {
    address = await listen(server, options.host ?? "127.0.0.2", options.port ?? 0);
  } catch (error) {
    if (options.host) throw error;
    address = await listen(server, "127.0.0.1", options.port ?? 0);
  }
  const origin = `http://${address.address}:${address.port}`;
  return {
    origin,
    url: (photo) => `${origin}/photos/${photo.name}.jpg`,
    requests,
    bytesSent: () => sent,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
