import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { DEFAULT_FETCH_OPTIONS, describeNetworkError, readCapped } from "../lib/fetch";

/**
 * Fetching one feed picture. A feed names any address it likes, so the fetch must not become a
 * way into our own network: every hop of a redirect connects only to a public unicast address, and
 * the address checked is the one connected to, because the check runs inside the connection's own
 * DNS lookup (no second lookup an attacker's DNS server could answer differently). Never throws.
 */

export interface PictureFetchOptions {
  userAgent: string;
  /** Whole request, redirects and body included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Validators from the last fetch of the same address. */
  etag?: string | null;
  lastModified?: string | null;
  /** Lets private, loopback, link-local, unique-local and shared (CGNAT) addresses through. */
  allowPrivateAddresses?: boolean;
  /** Name resolution; the system's by default (tests give their own). */
  lookup?: net.LookupFunction;
  signal?: AbortSignal;
}

export type PictureFetchResult =
  | {
      kind: "ok";
      body: Uint8Array;
      etag: string | null;
      lastModified: string | null;
      finalUrl: string;
    }
  | { kind: "not-modified" }
  | { kind: "error"; status: number | null; error: string };

/** Ranges `allowPrivateAddresses` lets through; every other range but public unicast is refused. */
const PRIVATE_RANGES = new Set([
  "private",
  "loopback",
  "linkLocal",
  "uniqueLocal",
  "carrierGradeNat",
]);

/**
 * Cloud instance metadata and credential services: refused even when private addresses are
 * allowed. AWS (instance metadata, ECS task and EKS pod credentials), Alibaba, Azure's WireServer
 * (a public address only Azure's machines reach).
 */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254",
  "169.254.170.2",
  "169.254.170.23",
  "100.100.100.200",
  "168.63.129.16",
  "fd00:ec2::254",
  "fd00:ec2::23",
]);

/** Whether a connection to `address` reaches a cloud metadata or credential service. */
export function isMetadataAddress(address: string): boolean {
  return ipaddr.isValid(address) && METADATA_ADDRESSES.has(reachedAddress(address).toString());
}

/**
 * IPv6 ranges whose last 32 bits are an IPv4 address that a connection can end up at: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated, but Linux's sit tunnel still carries
 * it), IPv4-translated (::ffff:0:a.b.c.d) and the well-known NAT64 prefix (64:ff9b::a.b.c.d).
 * ipaddr.js calls the compatible ones, written in hexadecimal as URLs write them, public unicast.
 */
const CARRYING_IPV4 = ["::ffff:0:0/96", "::/96", "::ffff:0:0:0/96", "64:ff9b::/96"].map((cidr) =>
  ipaddr.IPv6.parseCIDR(cidr),
);

/** The address a connection to `address` reaches: the IPv4 address an IPv6 one carries, or itself. */
function reachedAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed;
  // :: and ::1 are IPv6's own unspecified and loopback addresses, not 0.0.0.0 and 0.0.0.1.
  const range = parsed.range();
  if (range === "unspecified" || range === "loopback") return parsed;
  const carried = CARRYING_IPV4.some((cidr) => parsed.match(cidr));
  return carried ? ipaddr.fromByteArray(parsed.toByteArray().slice(12)) : parsed;
}

/** Why an address may not be connected to, or null when it may. */
export function refusedAddress(address: string, allowPrivate = false): string | null {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  const reached = reachedAddress(address);
  const shown = reached.toString() === address ? address : `${address} (${reached.toString()})`;
  if (METADATA_ADDRESSES.has(reached.toString())) {
    return `${shown} is a cloud metadata address`;
  }
  const range = reached.range();
  if (range === "unicast" || (allowPrivate && PRIVATE_RANGES.has(range))) return null;
  return `${shown} is not a public address (${range})`;
}

class RefusedAddressError extends Error {}

/** The connection's lookup, answering only with addresses it may connect to. */
function checkingLookup(lookup: net.LookupFunction, allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses, family) => {
      if (error) return callback(error, "");
      const all =
        typeof addresses === "string" ? [{ address: addresses, family: family ?? 0 }] : addresses;
      const allowed = all.filter((entry) => !refusedAddress(entry.address, allowPrivate));
      const first = allowed[0];
      if (!first) {
        const reason = refusedAddress(all[0]?.address ?? "", allowPrivate);
        return callback(new RefusedAddressError(`Refused ${hostname}: ${reason}`), "");
      }
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

function request(
  url: URL,
  headers: Record<string, string>,
  lookup: net.LookupFunction,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    // A fresh agent per request: no kept-alive socket outlives the checks of its own connection.
    client.get(url, { headers, lookup, signal, agent: false }, resolve).on("error", reject);
  });
}

export async function fetchPicture(
  url: string,
  options: PictureFetchOptions,
): Promise<PictureFetchResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_OPTIONS.timeoutMs;
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_OPTIONS.maxBytes;
  const maxRedirects = options.maxRedirects ?? DEFAULT_FETCH_OPTIONS.maxRedirects;
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const lookup = checkingLookup(options.lookup ?? dns.lookup, allowPrivate);
  const headers: Record<string, string> = {
    "user-agent": options.userAgent,
    accept: "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.5",
  };
  if (options.etag) headers["if-none-match"] = options.etag;
  if (options.lastModified) headers["if-modified-since"] = options.lastModified;

  let current = URL.parse(url);
  try {
    for (let redirects = 0; ; redirects++) {
      if (!current || !/^https?:$/.test(current.protocol)) {
        return { kind: "error", status: null, error: `Not an http(s) address: ${url}` };
      }
      // Node connects to an address given as such without a lookup, so it is checked here.
      const literal = current.hostname.replace(/^\[|\]$/g, "");
      const refused = net.isIP(literal) ? refusedAddress(literal, allowPrivate) : null;
      if (refused) return { kind: "error", status: null, error: `Refused ${refused}` };

      const response = await request(current, headers, lookup, signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        response.destroy();
        const location = response.headers.location;
        if (!location)
          return { kind: "error", status, error: `Redirect ${status} without a Location` };
        if (redirects >= maxRedirects) {
          return { kind: "error", status, error: `More than ${maxRedirects} redirects` };
        }
        url = new URL(location, current).toString();
        current = new URL(url);
        continue;
      }
      if (status === 304) {
        response.destroy();
        return { kind: "not-modified" };
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        return { kind: "error", status, error: `HTTP ${status}` };
      }
      const tooLong = Number(response.headers["content-length"]) > maxBytes;
      if (tooLong) response.destroy();
      const body = tooLong ? undefined : await readCapped(response, maxBytes);
      if (!body) return { kind: "error", status, error: `Body larger than ${maxBytes} bytes` };
      return {
        kind: "ok",
        body,
        etag: response.headers.etag ?? null,
        lastModified: response.headers["last-modified"] ?? null,
        finalUrl: current.toString(),
      };
    }
  } catch (error) {
    // A body cut by the timeout ends as a plain "aborted" error: the signal says which it was.
    const message =
      error instanceof RefusedAddressError
        ? error.message
        : describeNetworkError(timeout.aborted ? timeout.reason : error, timeoutMs);
    return { kind: "error", status: null, error: message };
  }
}
