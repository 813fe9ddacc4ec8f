import type http from "node:http";
import type { CachedPage, PageCache } from "./page-cache";

/** Sending a page kept by the page cache: from Express, or from the fast path in front of it. */

type Encoding = "br" | "gzip" | "identity";

/** Browsers send a handful of distinct Accept-Encoding values: each is worked out once. */
const chosenEncodings = new Map<string, Encoding>();
const CHOSEN_ENCODINGS_KEPT = 64;

/** The encoding to send: brotli, then gzip, as the client accepts them (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (acceptEncoding === undefined) return "identity";
  let chosen = chosenEncodings.get(acceptEncoding);
  if (chosen === undefined) {
    chosen = parseAcceptEncoding(acceptEncoding);
    // Odd values from odd clients are worked out each time rather than kept without bound.
    if (chosenEncodings.size < CHOSEN_ENCODINGS_KEPT) chosenEncodings.set(acceptEncoding, chosen);
  }
  return chosen;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

export function sendCached(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  page: CachedPage,
  outcome: "HIT" | "STALE" | "MISS",
) {
  const headers: http.OutgoingHttpHeaders = {
    ...Object.fromEntries(page.headers),
    ETag: page.etag,
    Vary: page.varyCookie ? "Accept-Encoding, Cookie" : "Accept-Encoding",
    "X-Cache": outcome,
  };
  // A stale page says how old it is, so a browser or shared cache counts its max-age from when it
  // was rendered and asks again soon, not a whole max-age from now.
  if (outcome === "STALE") headers.Age = Math.floor((Date.now() - page.storedAt) / 1000);
  const validators = req.headers["if-none-match"]?.split(",").map((v) => v.trim()) ?? [];
  if (validators.includes(page.etag) || validators.includes("*")) {
    delete headers["content-type"];
    res.writeHead(304, headers).end();
    return;
  }
  const encoding = chooseEncoding(req.headers["accept-encoding"]);
  const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  headers["Content-Length"] = body.length;
  res.writeHead(page.status, headers).end(req.method === "HEAD" ? undefined : body);
}

/**
 * The fast path for a page already in the cache, in front of Express: answers with the page and the
 * headers every answer carries (`fixedHeaders`), and says whether it did. Anything else, or a page
 * that varies by cookie asked for with cookies, goes on to the full app.
 */
export function cachedPageListener(
  cache: PageCache,
  fixedHeaders: Record<string, string>,
  hooks: {
    /** Told of a request the cache is about to answer; gives the id its answer carries. */
    answering?: (req: http.IncomingMessage, res: http.ServerResponse) => string;
    /** Told of each answer sent, by path and status. */
    observe?: (path: string, status: number) => void;
  } = {},
): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const { answering, observe } = hooks;
  // A hit's whole header block, worked out once per page and encoding: hits only write it out.
  const prepared = new WeakMap<CachedPage, Map<string, string[]>>();
  const headersFor = (page: CachedPage, encoding: Encoding) => {
    let byEncoding = prepared.get(page);
    if (!byEncoding) prepared.set(page, (byEncoding = new Map()));
    let raw = byEncoding.get(encoding);
    if (!raw) {
      const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
      // Lower-case names throughout, so the page's own headers (its CSP) replace the fixed ones
      // rather than going out twice: a raw header block is written as it is.
      const lower = (entries: Iterable<[string, string]>) =>
        [...entries].map(([name, value]): [string, string] => [name.toLowerCase(), value]);
      const headers: Record<string, string> = {
        ...Object.fromEntries(lower(Object.entries(fixedHeaders))),
        ...Object.fromEntries(lower(page.headers)),
        etag: page.etag,
        vary: page.varyCookie ? "Accept-Encoding, Cookie" : "Accept-Encoding",
        "x-cache": "HIT",
        "content-length": String(body.length),
        ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
      };
      raw = Object.entries(headers).flat();
      byEncoding.set(encoding, raw);
    }
    return raw;
  };

  return (req, res) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return false;
    const page = cache.get(req.url);
    if (!page || (page.varyCookie && req.headers.cookie)) return false;
    const id = answering?.(req, res);
    const validators = req.headers["if-none-match"];
    if (validators) {
      // Conditional requests are rarer: the general path answers them.
      for (const [name, value] of Object.entries(fixedHeaders)) res.setHeader(name, value);
      if (id) res.setHeader("X-Request-Id", id);
      sendCached(req, res, page, "HIT");
    } else {
      const encoding = chooseEncoding(req.headers["accept-encoding"]);
      const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.body;
      const headers = headersFor(page, encoding);
      res
        .writeHead(page.status, id ? [...headers, "x-request-id", id] : headers)
        .end(req.method === "HEAD" ? undefined : body);
    }
    if (observe) {
      const query = req.url.indexOf("?");
      observe(query === -1 ? req.url : req.url.slice(0, query), res.statusCode);
    }
    return true;
  };
}
