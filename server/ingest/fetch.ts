import dns from "node:dns";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMetadataAddress, refusedAddress } from "../images/fetch";
import { describeNetworkError, parseRetryAfter, readCapped, type FetchError } from "../lib/fetch";

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
  /** Name resolution for the redirect check (redirectRefused); the system's by default. */
  lookup?: (hostname: string) => Promise<{ address: string }[]>;
}

const systemLookup = (hostname: string) => dns.promises.lookup(hostname, { all: true });

/** The addresses a URL's host stands for (an address literal, or what its name resolves to). */
async function addressesOf(url: URL, lookup: FetchOptions["lookup"] = systemLookup) {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  try {
    return (await lookup(host)).map((a) => a.address);
  } catch {
    // A name that does not resolve: the request itself fails and says so.
    return [];
  }
}

/**
 * Why a redirect to `to` of the feed at `origin` is not followed, or null. The feed's own address is the
 * operator's choice, and may be on the site's own network; where it sends the reader is the feed
 * host's. So a feed on a public address may not send the fetch to a loopback, private, link-local
 * or other non-public one (a cloud's metadata service, an internal server); a feed on such an
 * address may (the operator trusts that network), but never to a cloud metadata address. The
 * names are resolved here and again when the request connects: a name whose answer changes in
 * between is not caught, which the picture fetch (server/images/fetch.ts) does catch.
 */
async function redirectRefused(
  origin: string,
  to: URL,
  lookup: FetchOptions["lookup"],
): Promise<string | null> {
  const targets = await addressesOf(to, lookup);
  if (targets.some(isMetadataAddress)) {
    return `Redirect to a cloud metadata address refused: ${to.toString()}`;
  }
  const publicOrigin = (await addressesOf(new URL(origin), lookup)).every(
    (a) => refusedAddress(a) === null,
  );
  if (!publicOrigin) return null;
  const inner = targets.find((a) => refusedAddress(a) !== null);
  return inner
    ? `Redirect to a non-public address refused: ${to.toString()} (${refusedAddress(inner) ?? inner})`
    : null;
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

/** A fetch that came to nothing, `retryAfterSeconds` from a 429 or 503's Retry-After. */
const failed = (
  status: number | null,
  error: string,
  retryAfterSeconds: number | null = null,
): FetchResult => ({ kind: "error", status, error, retryAfterSeconds });

export async function fetchFeed(source: string, options: FetchOptions): Promise<FetchResult> {
  if (isLocalSource(source)) return readLocal(source, options.maxBytes);
  return fetchHttp(source, options);
}

async function readLocal(source: string, maxBytes: number): Promise<FetchResult> {
  const file = source.startsWith("file:") ? fileURLToPath(source) : path.resolve(source);
  try {
    const stat = await fs.stat(file);
    if (stat.size > maxBytes) return failed(null, `File is larger than ${maxBytes} bytes`);
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
    return failed(null, `Cannot read ${file}: ${(error as Error).message}`);
  }
}

function maxAge(headers: Headers): number | null {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(headers.get("cache-control") ?? "");
  return match?.[1] ? Number(match[1]) : null;
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
        const status = response.status;
        if (!location) return failed(status, `Redirect ${status} without a Location`);
        const next = new URL(location, current).toString();
        if (seen.has(next)) return failed(status, `Redirect loop at ${next}`);
        if (redirects >= options.maxRedirects) {
          return failed(status, `More than ${options.maxRedirects} redirects`);
        }
        if (!/^https?:$/.test(new URL(next).protocol)) {
          return failed(status, `Redirect to a non-HTTP address: ${next}`);
        }
        const refused = await redirectRefused(url, new URL(next), options.lookup);
        if (refused) return failed(status, refused);
        current = next;
        continue;
      }
      if (response.status === 304) {
        await response.body?.cancel();
        return { kind: "not-modified", status: 304, maxAgeSeconds: maxAge(response.headers) };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return failed(
          response.status,
          `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
          parseRetryAfter(response.headers.get("retry-after")),
        );
      }
      // A compressed body's length is not the decompressed one's, which the cap is for.
      const tooLong =
        !response.headers.get("content-encoding") &&
        Number(response.headers.get("content-length")) > options.maxBytes;
      if (tooLong) await response.body?.cancel();
      const body = tooLong ? undefined : await readCapped(response.body ?? [], options.maxBytes);
      if (!body) return failed(response.status, `Body larger than ${options.maxBytes} bytes`);
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
    return failed(null, describeNetworkError(error, options.timeoutMs));
  }
}
