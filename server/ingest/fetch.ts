import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeNetworkError, type FetchError } from "../lib/fetch";

/**
 * Fetching one feed: HTTP(S) with a total timeout, a redirect limit, a streamed size cap and
 * conditional GET; `file:` URLs and plain paths from disk. Never throws: every outcome is a result.
 */

export interface FetchOptions {
  /** Whole request, body included. */
  timeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
  userAgent: string;
  /** Validators from the last successful fetch. */
  etag?: string | null;
  lastModified?: string | null;
  /** Stops the request early, e.g. on shutdown. */
  signal?: AbortSignal;
}

export type FetchResult =
  | {
      kind: "ok";
      status: number;
      body: Uint8Array;
      contentType: string | null;
      etag: string | null;
      lastModified: string | null;
      /** Cache-Control max-age of the answer, as a floor for the next attempt. */
      maxAgeSeconds: number | null;
      finalUrl: string;
    }
  | { kind: "not-modified"; status: 304; maxAgeSeconds: number | null }
  | {
      kind: "error";
      status: number | null;
      error: string;
      /** From a 429 or 503 answer's Retry-After. */
      retryAfterSeconds: number | null;
    };

/** Whether a configured source is read from disk rather than over HTTP. */
export function isLocalSource(source: string): boolean {
  return source.startsWith("file:") || !/^[a-z][a-z0-9+.-]*:/i.test(source);
}

export async function fetchFeed(source: string, options: FetchOptions): Promise<FetchResult> {
  if (isLocalSource(source)) return readLocal(source, options.maxBytes);
  return fetchHttp(source, options);
}

async function readLocal(source: string, maxBytes: number): Promise<FetchResult> {
  const file = source.startsWith("file:") ? fileURLToPath(source) : path.resolve(source);
  try {
    const stat = await fs.stat(file);
    if (stat.size > maxBytes) {
      return {
        kind: "error",
        status: null,
        error: `File is larger than ${maxBytes} bytes`,
        retryAfterSeconds: null,
      };
    }
    const body = new Uint8Array(await fs.readFile(file));
    return {
      kind: "ok",
      status: 200,
      body,
      contentType: null,
      etag: null,
      lastModified: null,
      maxAgeSeconds: null,
      finalUrl: source,
    };
  } catch (error) {
    return {
      kind: "error",
      status: null,
      error: `Cannot read ${file}: ${(error as Error).message}`,
      retryAfterSeconds: null,
    };
  }
}

function maxAge(headers: Headers): number | null {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(headers.get("cache-control") ?? "");
  return match?.[1] ? Number(match[1]) : null;
}

/** Retry-After is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - now) / 1000));
}

/**
 * Undici's codes for a connection the server closed or reset before it answered. Most often that is a kept-alive
 * connection the server dropped while it sat idle, which the client finds out only when it sends the next request
 * over it (several feeds of one host are fetched in one pass).
 */
const DROPPED_CONNECTION = new Set(["UND_ERR_SOCKET", "ECONNRESET"]);

/**
 * `fetch`, sent once more on a new connection when the first try's connection was closed before any answer came, as
 * browsers do for requests that are safe to repeat. A server that closes every connection still fails, after two.
 */
async function fetchRetryingDroppedConnection(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as FetchError).cause?.code;
    if (init.signal?.aborted || code === undefined || !DROPPED_CONNECTION.has(code)) {
      throw error;
    }
    return fetch(url, init);
  }
}

async function fetchHttp(url: string, options: FetchOptions): Promise<FetchResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = {
    "user-agent": options.userAgent,
    accept:
      "application/rss+xml, application/atom+xml, application/rdf+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
    "accept-encoding": "gzip, deflate, br",
  };
  if (options.etag) headers["if-none-match"] = options.etag;
  if (options.lastModified) headers["if-modified-since"] = options.lastModified;

  let current = url;
  const seen = new Set<string>();
  try {
    for (let redirects = 0; ; redirects++) {
      seen.add(current);
      const response = await fetchRetryingDroppedConnection(current, {
        headers,
        redirect: "manual",
        signal,
      });
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location) {
          return {
            kind: "error",
            status: response.status,
            error: `Redirect ${response.status} without a Location`,
            retryAfterSeconds: null,
          };
        }
        const next = new URL(location, current).toString();
        if (seen.has(next)) {
          return {
            kind: "error",
            status: response.status,
            error: `Redirect loop at ${next}`,
            retryAfterSeconds: null,
          };
        }
        if (redirects >= options.maxRedirects) {
          return {
            kind: "error",
            status: response.status,
            error: `More than ${options.maxRedirects} redirects`,
            retryAfterSeconds: null,
          };
        }
        if (!/^https?:$/.test(new URL(next).protocol)) {
          return {
            kind: "error",
            status: response.status,
            error: `Redirect to a non-HTTP address: ${next}`,
            retryAfterSeconds: null,
          };
        }
        current = next;
        continue;
      }
      if (response.status === 304) {
        await response.body?.cancel();
        return { kind: "not-modified", status: 304, maxAgeSeconds: maxAge(response.headers) };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return {
          kind: "error",
          status: response.status,
          error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
          retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
        };
      }
      const body = await readCapped(response, options.maxBytes);
      if (!body) {
        return {
          kind: "error",
          status: response.status,
          error: `Body larger than ${options.maxBytes} bytes`,
          retryAfterSeconds: null,
        };
      }
      return {
        kind: "ok",
        status: response.status,
        body,
        contentType: response.headers.get("content-type"),
        etag: response.headers.get("etag"),
        lastModified: response.headers.get("last-modified"),
        maxAgeSeconds: maxAge(response.headers),
        finalUrl: current,
      };
    }
  } catch (error) {
    return {
      kind: "error",
      status: null,
      error: describeNetworkError(error, options.timeoutMs),
      retryAfterSeconds: null,
    };
  }
}

/** Reads the (decompressed) body, stopping as soon as it passes the cap; undefined when it did. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length"));
  if (!response.headers.get("content-encoding") && declared > maxBytes) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
