import { createHash } from "node:crypto";
import type express from "express";
import type { Config } from "../config";

/** The privacy-enhanced video player the featured video and blog posts use. */
const VIDEO_PLAYER_ORIGIN = "https://www.youtube-nocookie.com";

const origin = (url: string | null) => {
  if (!url) return null;
  try {
    return new URL(url.replace("{slot}", "0")).origin;
  } catch {
    return null;
  }
};

// Scripts written into the page itself (React Router's hydration data and module loader), not data
// blocks such as JSON-LD, which browsers never run.
const INLINE_SCRIPT =
  /<script\b(?![^>]*\bsrc\s*=)(?![^>]*\btype\s*=\s*"application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The inline scripts the framework writes: React Router's scroll restoration, context, stream of
 * loader data and module loader, and React's streaming runtime. Only these are allowed by hash, so a
 * script element that reached a page any other way (a sanitiser bug, say) is still refused to run.
 */
export const OWN_INLINE_SCRIPTS: readonly RegExp[] = [
  /^\(\((?:storageKey\d*, restoreKey|\w+,\s?\w+)\)\s?=>\s?\{/,
  /^window\.__reactRouterContext = \{/,
  /^window\.__reactRouterContext\.streamController\.enqueue\("(?:[^"\\\n]|\\.)*"\);$/,
  /^window\.__reactRouterContext\.streamController\.close\(\);$/,
  /^;\nimport \* as route0 from "\/assets\/[\w.-]+\.js";\n/,
  /^requestAnimationFrame\(function\(\)\{\$RT=performance\.now\(\)\}\);$/,
  /^\$R[A-Z]+(?:=|\()/,
];

/**
 * The SHA-256 source expressions of the framework's inline scripts in a page (OWN_INLINE_SCRIPTS),
 * given as its text or as its UTF-8 bytes.
 *
 * Bytes are searched as Latin-1 text, one character per byte, which needs no decoding: every tag,
 * quote and pattern looked for is ASCII, and the bytes of a character beyond ASCII are all above
 * 0x7F, so they are never mistaken for one. A script's characters are then its original bytes again.
 */
export function inlineScriptHashes(page: string | Buffer): string[] {
  const bytes = typeof page !== "string";
  const text = bytes ? page.toString("latin1") : page;
  const hashes = new Set<string>();
  for (const match of text.matchAll(INLINE_SCRIPT)) {
    const body = match[1] ?? "";
    if (!OWN_INLINE_SCRIPTS.some((pattern) => pattern.test(body))) continue;
    const hash = createHash("sha256").update(body, bytes ? "latin1" : "utf8");
    hashes.add(`'sha256-${hash.digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The Content-Security-Policy of a page: our own scripts and exactly the inline scripts it carries
 * (by hash, so a cached page needs no fresh nonce), frames and scripts of the configured providers
 * only, and nothing else that can run.
 */
export function pagePolicy(page: string | Buffer, config: Config): string {
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
    `script-src 'self' ${[...inlineScriptHashes(page), ...new Set([adScripts, ...adOrigins])].filter(Boolean).join(" ")}`.trim(),
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
export const NO_PAGE_MESSAGE = "There is no page at this address.";

/** Control characters (C0 and DEL): no id, slug or path of this site has one. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

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
    if (hasControlCharacter(path)) return refuse(res, 404, NO_PAGE_MESSAGE);
    next();
  };
}

/** The methods pages and forms answer; OPTIONS is told them. */
export const ALLOWED_METHODS = "GET, HEAD, POST";

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
