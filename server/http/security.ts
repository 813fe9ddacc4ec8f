import { createHash, randomBytes } from "node:crypto";
import type express from "express";
import type { Config } from "../config";

/** The privacy-enhanced video player the featured video and blog posts use. */
const VIDEO_PLAYER_ORIGIN = "https://www.youtube-nocookie.com";

const origin = (url: string | null) =>
  url ? (URL.parse(url.replace("{slot}", "0"))?.origin ?? null) : null;

/** A fresh nonce for one render: 128 random bits, as the CSP specification asks. */
export const newNonce = () => randomBytes(16).toString("base64url");

/**
 * The SHA-256 source expressions of the inline scripts in a rendered page that carry `nonce`: the
 * ones React and React Router wrote (given the nonce through their documented `nonce` options), so
 * the page can be sent to many readers without its nonce being presented as one. A script element
 * that reached the page any other way does not know the render's nonce, and stays refused.
 *
 * The page is searched as Latin-1 text, one character per byte, which needs no decoding: the tag
 * and the nonce are ASCII, and the bytes of a character beyond ASCII are all above 0x7F, so they
 * are never mistaken for them. A script's characters are then its original bytes again.
 */
export function nonceScriptHashes(page: Buffer, nonce: string): string[] {
  const text = page.toString("latin1");
  const hashes = new Set<string>();
  const script = new RegExp(`<script\\b[^>]*\\snonce="${nonce}"[^>]*>([\\s\\S]*?)</script>`, "g");
  for (const match of text.matchAll(script)) {
    const hash = createHash("sha256").update(match[1] ?? "", "latin1");
    hashes.add(`'sha256-${hash.digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The Content-Security-Policy of a page: our own scripts and the inline ones `inlineScripts` allows
 * (its render's `'nonce-…'`, or the `'sha256-…'` of each when the page is kept for many readers),
 * frames and scripts of the configured providers only, and nothing else that can run.
 */
export function pagePolicy(inlineScripts: readonly string[], config: Config): string {
  const { embeds } = config;
  // 'self': the newsroom's preview frames the site's own page (readers' pages frame none of ours).
  const frames = [
    "'self'",
    VIDEO_PLAYER_ORIGIN,
    origin(embeds.imageFeedUrl),
    origin(embeds.holidayCalendarUrl),
    origin(embeds.feedWallUrl),
    origin(embeds.contactFormUrl),
  ].filter((o): o is string => o !== null);
  // With ads on: the provider's script host, and the further origins its script loads scripts and
  // frames from and sends requests to.
  const adScripts = origin(embeds.adScriptUrl);
  const adOrigins = adScripts ? config.adProviderOrigins : [];
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${[...inlineScripts, ...new Set([adScripts, ...adOrigins])].filter(Boolean).join(" ")}`.trim(),
    // Style attributes size ad slots and frames before they load; no inline script is allowed.
    "style-src 'self' 'unsafe-inline'",
    // Feed pictures are served from our origin (decision 022); an ad provider's script may add
    // its pictures and counting pixels to the page.
    `img-src ${[...new Set(["'self'", adScripts, ...adOrigins])].filter(Boolean).join(" ")}`,
    "font-src 'self'",
    `connect-src ${["'self'", ...adOrigins].join(" ")}`,
    `frame-src ${[...new Set([...frames, ...adOrigins])].join(" ")}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(config.siteUrl.startsWith("https://") ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** What every answer carries, pages or not; pages replace the CSP with their own. */
export function securityHeaderValues(config: Config): Record<string, string> {
  return {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "SAMEORIGIN",
    "Permissions-Policy":
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), magnetometer=(), gyroscope=(), accelerometer=(), browsing-topics=()",
    ...(config.siteUrl.startsWith("https://")
      ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }
      : {}),
  };
}

export function securityHeaders(config: Config): express.RequestHandler {
  const headers = Object.entries(securityHeaderValues(config));
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * Refuses a state-changing request that a page of another site made a browser send (CSRF): the
 * browser's own Sec-Fetch-Site or Origin says where it came from. Clients that send neither are
 * not browsers acting for a reader, and are let through.
 */
export function sameOriginPosts(config: Config): express.RequestHandler {
  const siteOrigin = new URL(config.siteUrl).origin;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const site = req.get("sec-fetch-site");
    const from = req.get("origin");
    const ownOrigin = `${req.protocol}://${req.get("host") ?? ""}`;
    const crossSite =
      (site !== undefined && site !== "same-origin" && site !== "none") ||
      (from !== undefined && from !== "null" && from !== siteOrigin && from !== ownOrigin) ||
      from === "null";
    if (!crossSite) return next();
    res.setHeader("Cache-Control", "no-store");
    res
      .status(403)
      .type("text/plain")
      .send("This form can only be sent from this site's own pages. Please go back and try again.");
  };
}

/** The answer to an address whose path has a broken %-escape. */
export const MALFORMED_PATH_MESSAGE =
  "This address has a broken %-escape in it, so it names no page of this site.";

/** The answer to an address whose path holds a control character (`/article/%00`). */
const NO_PAGE_MESSAGE = "There is no page at this address.";

/** Control characters (C0 and DEL): no id, slug or path of this site has one. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/**
 * Paths are checked before anything reads them, so junk never reaches a query or React Router: a
 * path that cannot be decoded (`/%E0%A4%A`, `/%ZZ`) is 400; one holding a control character
 * (`/article/%00`) names no page, 404. Each is one warning in the request log, with no stack.
 * Query values are each page's own to read (search takes any text and drops what PostgreSQL
 * refuses); server/http/junk-requests.test.ts sends junk in every one of them.
 */
export function wellFormedPaths(): express.RequestHandler {
  return (req, res, next) => {
    let path: string;
    try {
      path = decodeURI(req.path);
    } catch {
      return refuse(res, 400, MALFORMED_PATH_MESSAGE);
    }
    if (CONTROL_CHARACTER.test(path)) return refuse(res, 404, NO_PAGE_MESSAGE);
    next();
  };
}

/** The methods pages and forms answer; OPTIONS is told them. */
const ALLOWED_METHODS = "GET, HEAD, POST";

/**
 * Any other method (TRACE, PUT, PROPFIND, ...) is answered 405 here, before the renderer, whose
 * Fetch API request cannot even be made for some of them.
 */
export function allowedMethods(): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return next();
    res.setHeader("Allow", ALLOWED_METHODS);
    if (req.method === "OPTIONS") {
      res.setHeader("Cache-Control", "no-store");
      res.status(204).end();
      return;
    }
    refuse(res, 405, "This site's pages are read with GET and its forms sent with POST.");
  };
}

function refuse(res: express.Response, status: number, message: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.status(status).type("text/plain").send(message);
}

/**
 * Form bodies are small: a declared length over `maxBytes` is refused before anything is read, and
 * a body without a declared length (browsers always declare one for forms) is not accepted.
 */
export function bodyLimit(maxBytes: number): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const declared = req.get("content-length");
    const chunked = declared === undefined && req.get("transfer-encoding") !== undefined;
    if (!chunked && Number(declared ?? 0) <= maxBytes) return next();
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Connection", "close");
    res
      .status(chunked ? 411 : 413)
      .type("text/plain")
      .send(
        chunked
          ? "Please send the form again; its length was not given."
          : "What was sent is too large for this form.",
      );
  };
}
