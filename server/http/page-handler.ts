import { createHeaders, sendResponse as sendFetchResponse } from "@remix-run/node-fetch-server";
import type express from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { readBody, refuseBody } from "./body";
import { sendCached } from "./cached-pages";
import type { LoadContext } from "./load-context";
import { newNonce, nonceScriptHashes } from "./security";
import {
  cachedPage,
  sharedMaxAgeMs,
  STALE_WHILE_REVALIDATE_SECONDS,
  type CachedPage,
  type PageCache,
} from "./page-cache";
import { addDataKeys, routeBodyLimits, routeMatcher } from "./route-match";

/**
 * Browsers ask again for every page (an ETag makes the answer a 304 when it is unchanged), so an
 * editor sees a take-down or a correction at once.
 */
export const PAGE_CACHE_CONTROL = "public, no-cache";
/**
 * A CDN in front may keep a page a minute and serve it stale while refreshed (RFC 9213's
 * CDN-Cache-Control, which CDNs read instead of Cache-Control).
 */
const PAGE_CDN_CACHE_CONTROL = `public, max-age=60, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`;

/**
 * The same lifetime for caches that read Surrogate-Control instead (Fastly, our Varnish
 * configuration): a page's CDN-Cache-Control without `public`, which Surrogate-Control does not use.
 */
function surrogateControl(cdnCacheControl: string): string {
  return cdnCacheControl
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "" && part.toLowerCase() !== "public")
    .join(", ");
}

export interface PageHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  /** The loaders' context; each render adds its own CSP nonce. */
  loadContext: (req: express.Request) => Omit<LoadContext, "cspNonce">;
  /** Null renders every request (the cache switched off). */
  cache: PageCache | null;
  /** Told of every render and cache outcome (metrics, tests). */
  observe?: (event: PageEvent) => void;
  /** Told when a stale page's render in the background failed (the stale page was sent). */
  onRefreshError?: (error: unknown, req: express.Request) => void;
  /**
   * The Content-Security-Policy of an HTML page whose inline scripts these sources allow: the
   * render's nonce for the one reader it is sent to, the scripts' hashes for a page kept for many.
   */
  policy?: (inlineScripts: readonly string[]) => string;
  /** The largest body a form may send, in bytes: reading stops there, whatever the headers say. */
  bodyLimit: number;
  /**
   * Larger limits a route may ask for by name in its `handle` (`{ body: "upload" }`): the route
   * that matches the address decides, never the address itself.
   */
  bodyLimits?: Record<string, number>;
}

/** A render, or how the cache answered: `stale` is a page past its TTL sent while rendered again. */
export type PageEvent = "render" | "hit" | "stale" | "miss" | "bypass";

/**
 * React Router's pages behind the response cache. An anonymous GET is answered from the cache
 * when it can be, rendered once for all who ask for the same URL at the same moment otherwise, and
 * the result kept when the page says it may be shared (`Cache-Control: public`, no cookie set).
 */
export function pageHandler(options: PageHandlerOptions): express.RequestHandler {
  const handle = createRequestHandler(options.build, options.mode);
  const matchesFor = routeMatcher(options.build);
  const limitFor = routeBodyLimits(matchesFor, options.bodyLimit, options.bodyLimits ?? {});
  const renders = new SharedRenders<CachedPage | null>();
  const observe = options.observe ?? (() => {});

  // A HEAD is rendered as the GET it stands for, so its answer can be kept and its headers match.
  const render = async (req: express.Request, body?: Buffer): Promise<Rendered> => {
    observe("render");
    const method = req.method === "HEAD" ? "GET" : req.method;
    const nonce = newNonce();
    const response = withDefaultCaching(
      method,
      await handle(toRequest(req, method, body), { ...options.loadContext(req), cspNonce: nonce }),
    );
    const { status, headers } = response;
    if (status === 200 && method === "GET" && !headers.has("Surrogate-Key")) {
      await addDataKeys(headers, req.path, matchesFor);
    }
    const policy = options.policy;
    if (!policy || !response.body || !headers.get("Content-Type")?.includes("text/html")) {
      return { status, headers, body: response.body };
    }
    // A page is read whole so it can be kept; pages are small. It is sent and kept as the bytes
    // React wrote, never decoded to text and encoded again.
    const page = Buffer.from(await response.arrayBuffer());
    headers.set("Content-Security-Policy", policy([`'nonce-${nonce}'`]));
    // React Router says text/html alone; the page is UTF-8, and the header says so before any byte.
    headers.set("Content-Type", "text/html; charset=utf-8");
    return { status, headers, body: page, nonce };
  };

  return async (req, res, next) => {
    try {
      const cache = options.cache;
      const headOnly = req.method === "HEAD";
      // Whether a page may be kept is the answering route's to say (its Cache-Control), never
      // the address's: the router matches addresses case-insensitively and decoded.
      if (!cache || (req.method !== "GET" && !headOnly)) {
        let body: Buffer | undefined;
        if (req.method !== "GET" && !headOnly) {
          const read = await readBody(req, await limitFor(req.path));
          if (typeof read === "string") return refuseBody(res, read);
          body = read;
        }
        if (cache) {
          observe("bypass");
          res.setHeader("X-Cache", "BYPASS");
        }
        await sendResponse(res, await render(req, body));
        return;
      }
      const key = req.originalUrl;
      const withCookies = Boolean(req.headers.cookie);
      // The rendered page, kept when it may be shared; a reader's own page (cookies) never is.
      const keep = (rendered: Rendered, generation: number) =>
        withCookies && variesByCookie(rendered)
          ? Promise.resolve(null)
          : keepIfShareable(cache, key, rendered, generation, options.policy);
      const found = cache.find(key);
      if (found && !(found.page.varyCookie && withCookies)) {
        if (found.stale) {
          // Sent as it is while one render, shared with any reader who comes meanwhile, replaces it.
          observe("stale");
          const generation = cache.generation;
          renders
            .run(key, generation, async () => keep(await render(req), generation))
            .catch((error: unknown) => options.onRefreshError?.(error, req));
          sendCached(req, res, found.page, "STALE");
          return;
        }
        observe("hit");
        sendCached(req, res, found.page, "HIT");
        return;
      }
      observe("miss");
      // A reader with cookies may see a page of their own: rendered alone, kept only if shareable.
      if (withCookies) {
        const generation = cache.generation;
        const rendered = await render(req);
        const page = await keep(rendered, generation);
        if (page) sendCached(req, res, page, "MISS");
        else {
          res.setHeader("X-Cache", "BYPASS");
          await sendResponse(res, rendered);
        }
        return;
      }
      let leaderAnswer: Rendered | undefined;
      const generation = cache.generation;
      const page = await renders.run(key, generation, async () => {
        const rendered = await render(req);
        const kept = await keep(rendered, generation);
        if (!kept) leaderAnswer = rendered;
        return kept;
      });
      if (page) sendCached(req, res, page, "MISS");
      else {
        // Not shareable: the one who rendered it sends it; anyone who waited renders their own.
        res.setHeader("X-Cache", "BYPASS");
        await sendResponse(res, leaderAnswer ?? (await render(req)));
      }
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Renders under way, by address: readers asking for one page at the same moment share one render.
 * A render begun before the cache was last emptied (`generation`: an ingest pass, a story taken
 * down) is not joined, as it may show what was just removed: a later reader starts one of their
 * own.
 */
export class SharedRenders<T> {
  private readonly running = new Map<string, { generation: number; result: Promise<T> }>();

  /** The result of the render of `key` under way in `generation`, or of `render`, started now. */
  run(key: string, generation: number, render: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current?.generation === generation) return current.result;
    const entry = {
      generation,
      result: render().finally(() => {
        if (this.running.get(key) === entry) this.running.delete(key);
      }),
    };
    this.running.set(key, entry);
    return entry.result;
  }

  /** How many renders are under way. */
  get size(): number {
    return this.running.size;
  }
}

/** What React Router answered: an HTML page read whole (its bytes), anything else as it streams. */
interface Rendered {
  status: number;
  headers: Headers;
  body: Buffer<ArrayBuffer> | ReadableStream<Uint8Array> | null;
  /** The nonce an HTML page's policy names, carried by the inline scripts React and React Router wrote. */
  nonce?: string;
}

/** Pages may be shared (browsers asking again each time) unless they say otherwise; errors and form answers never are. */
function withDefaultCaching(method: string, response: Response): Response {
  const headers = response.headers;
  if (method !== "GET" && method !== "HEAD") {
    headers.set("Cache-Control", "no-store");
  } else if (response.status >= 400) {
    // A route's own `private, no-store` (the newsroom's) stays as it is.
    if (!/\bno-store\b/.test(headers.get("Cache-Control") ?? "")) {
      headers.set("Cache-Control", "no-store");
    }
  } else if (response.status === 200 && !headers.has("Cache-Control")) {
    headers.set("Cache-Control", PAGE_CACHE_CONTROL);
    headers.set("CDN-Cache-Control", PAGE_CDN_CACHE_CONTROL);
  }
  // Fastly and Varnish read the CDN's lifetime from Surrogate-Control (a page may have set its own).
  const cdn = headers.get("CDN-Cache-Control");
  if (cdn && !headers.has("Surrogate-Control"))
    headers.set("Surrogate-Control", surrogateControl(cdn));
  return response;
}

/**
 * The rendered page, compressed and kept in the cache when it may be shared (kept only if the cache
 * was not emptied since `generation`, read before the rendering began); null when it may not. A
 * kept page's policy allows its nonce-carrying scripts by hash: its readers are many, and a nonce
 * is for one.
 */
async function keepIfShareable(
  cache: PageCache,
  key: string,
  rendered: Rendered,
  generation: number,
  policy: PageHandlerOptions["policy"],
): Promise<CachedPage | null> {
  const { status, headers: responseHeaders, body: renderedBody } = rendered;
  const cacheControl = responseHeaders.get("Cache-Control");
  const lifeMs = sharedMaxAgeMs(cacheControl);
  const shareable =
    status === 200 &&
    /\bpublic\b/.test(cacheControl ?? "") &&
    lifeMs !== 0 &&
    !responseHeaders.has("Set-Cookie") &&
    renderedBody !== null;
  if (!shareable) return null;
  const body = Buffer.isBuffer(renderedBody)
    ? renderedBody
    : Buffer.from(await new Response(renderedBody).arrayBuffer());
  const headers: [string, string][] = [];
  responseHeaders.forEach((value, name) => {
    if (!["content-length", "content-encoding", "transfer-encoding"].includes(name)) {
      headers.push([name, value]);
    }
  });
  if (policy && rendered.nonce !== undefined) {
    const csp = headers.find(([name]) => name === "content-security-policy");
    if (csp) csp[1] = policy(nonceScriptHashes(body, rendered.nonce));
  }
  const page = await cachedPage(
    { status, headers, body, varyCookie: variesByCookie(rendered), lifeMs },
    Date.now(),
    { best: cache.wasRead(key) },
  );
  cache.set(key, page, generation);
  return page;
}

const variesByCookie = (rendered: Rendered) =>
  /\bcookie\b/i.test(rendered.headers.get("Vary") ?? "");

/**
 * Sends what React Router answered through node-fetch-server (each Set-Cookie on its own, the body
 * as it streams, left off for a HEAD, dropped when the client goes).
 */
function sendResponse(res: express.Response, { status, headers, body }: Rendered): Promise<void> {
  // A page read whole, or an answer with no body (a redirect), says its length, as a kept page
  // does: the headers are written first, so Node cannot count it.
  if (Buffer.isBuffer(body)) headers.set("Content-Length", String(body.length));
  else if (body === null && status !== 204 && status !== 304) headers.set("Content-Length", "0");
  return sendFetchResponse(res, new Response(body, { status, headers }));
}

/**
 * The Fetch API request React Router wants, from Express's and the body already read (within the
 * route's limit). Not node-fetch-server's `createRequest`: a render may be shared by every reader
 * who asks meanwhile, so it must not end when the one who started it goes (decision 034).
 */
function toRequest(req: express.Request, method: string, body?: Buffer): Request {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const init: RequestInit = { method, headers: createHeaders(req) };
  if (method !== "GET" && method !== "HEAD") init.body = new Uint8Array(body ?? []);
  return new Request(url, init);
}
