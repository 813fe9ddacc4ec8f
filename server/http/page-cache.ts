import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A rendered page kept with its compressed forms, so a hit costs no rendering and no compressing. */
export interface CachedPage {
  status: number;
  /** Response headers as rendered, without content length or encoding. */
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** Strong validator: a hash of the uncompressed body. */
  etag: string;
  /** The page differs for a reader who sends cookies (the poll's results): served to none such. */
  varyCookie: boolean;
  /**
   * How long the page itself may be kept, when it says so with `s-maxage` (the home page while its
   * Breaking banner is about to expire): the cache keeps it no longer than this nor than its TTL.
   */
  lifeMs?: number;
  storedAt: number;
}

/** The `s-maxage` a Cache-Control value gives, in ms; undefined when it gives none. */
export function sharedMaxAgeMs(cacheControl: string | null): number | undefined {
  const seconds = /(?:^|,)\s*s-maxage=(\d+)\s*(?:,|$)/i.exec(cacheControl ?? "")?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

function strongEtag(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/**
 * Brotli's quality for a page: 9 for one rendered for the first time, 11 for one readers came back
 * to in an earlier life (`npm run bench:render`: the sample home page, 69 KB, 14 ms against 85 ms,
 * 12 % fewer bytes; with real photos' picture addresses, 125 KB, 13.5 KB against 12.6 KB, which
 * with its headers fits in the first round trip of a new connection). Both run on libuv's thread
 * pool, not the event loop: behind the stale copy when a page expired, while the first reader
 * waits when the cache was emptied.
 */
export const BROTLI_QUALITY = { first: 9, read: zlib.constants.BROTLI_MAX_QUALITY } as const;

/**
 * Compresses a rendered body both ways: brotli at the best level for a page known to be read
 * again and again (`best`), at a quicker one otherwise; gzip at its best level, which is quick.
 */
export async function cachedPage(
  page: Omit<CachedPage, "gzip" | "br" | "etag" | "storedAt">,
  now: number,
  { best = false }: { best?: boolean } = {},
): Promise<CachedPage> {
  const quality = best ? BROTLI_QUALITY.read : BROTLI_QUALITY.first;
  const [br, gz] = await Promise.all([
    brotli(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }),
    gzip(page.body, { level: 9 }),
  ]);
  return { ...page, br, gzip: gz, etag: strongEtag(page.body), storedAt: now };
}

const sizeOf = (page: CachedPage) => page.body.length + page.gzip.length + page.br.length;

/** Addresses remembered as read from the cache, at most this many (the least recent forgotten). */
const READ_KEYS_KEPT = 2048;

/**
 * How long past its TTL a page may still be answered while it is rendered again (the page handler
 * sends it and renders in the background), as browsers and shared caches are told they may
 * (`stale-while-revalidate` in PAGE_CACHE_CONTROL): no reader waits for a popular page's render.
 */
export const STALE_WHILE_REVALIDATE_SECONDS = 600;

/** A page found in the cache: `stale` once past its TTL, within the stale window. */
export interface FoundPage {
  page: CachedPage;
  stale: boolean;
}

/**
 * Rendered pages by URL, least recently used dropped first once the bytes exceed `maxBytes`, each
 * fresh for `ttlMs` (or less, as its `s-maxage` says) and, past that, answered stale for up to
 * `staleMs` more while rendered again; a page with an `s-maxage` of its own is never stale (its
 * life ends when what it shows does: the home page's banner). Emptied, stale pages too, whenever
 * ingest stores new or changed articles or a story is taken down. lru-cache keeps them (decision
 * 034): each page's TTL there is its whole life, stale window included, counted from `storedAt`.
 */
export class PageCache {
  private readonly pages: LRUCache<string, CachedPage>;
  /** Addresses asked for while their page was in the cache. */
  private readonly read = new LRUCache<string, true>({ max: READ_KEYS_KEPT });
  /** How many times the cache was emptied: see `generation`. */
  private emptied = 0;

  constructor(
    readonly maxBytes: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    readonly staleMs = 0,
  ) {
    this.pages = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: sizeOf,
      ttl: ttlMs + staleMs,
      // Our clock 1 ms on: lru-cache reads a start of 0 as "no TTL", and a test's clock starts at 0.
      perf: { now: () => now() + 1 },
      // Read at every look-up, not reused for a ms behind a timer (which would hide a test's clock).
      ttlResolution: 0,
    });
  }

  /** The page at `key` while fresh; a stale one stays for `find`. */
  get(key: string): CachedPage | undefined {
    const found = this.find(key);
    return found && !found.stale ? found.page : undefined;
  }

  /** The page at `key`, fresh or stale. */
  find(key: string): FoundPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    this.read.set(key, true);
    // A page with a life of its own is kept only while fresh: past the cache's TTL is stale.
    return { page, stale: this.now() - page.storedAt > this.ttlMs };
  }

  /**
   * Changes whenever the cache is emptied. A page is rendered, then compressed (up to about 100 ms
   * at brotli 11), then kept: one whose rendering began before an emptying (an ingest pass, a story
   * taken down) may show what was just removed, so `set` with the generation read before the
   * rendering keeps it only if the cache was not emptied meanwhile.
   */
  get generation(): number {
    return this.emptied;
  }

  set(key: string, page: CachedPage, generation = this.emptied): void {
    // A life of 0 is no TTL to lru-cache: such a page is not kept at all.
    if (generation !== this.emptied || page.lifeMs === 0) return;
    const ttl =
      page.lifeMs === undefined ? this.ttlMs + this.staleMs : Math.min(this.ttlMs, page.lifeMs);
    this.pages.set(key, page, { ttl, start: page.storedAt + 1 });
  }

  clear(): void {
    this.pages.clear();
    this.emptied += 1;
  }

  /**
   * Whether the page at `key` was answered from the cache before (in this life or an earlier one,
   * across expiry and clearing): a page readers come back to, worth compressing at the best level.
   */
  wasRead(key: string): boolean {
    return this.read.has(key);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.pages.size, bytes: this.pages.calculatedSize };
  }
}

/**
 * The cache the configuration asks for (none when PAGE_CACHE_MB is 0), emptied whenever any
 * process on the database announces changed articles.
 */
export async function pageCacheFor(
  config: Config,
  database: Pick<DatabaseHandle, "onChange">,
): Promise<PageCache | null> {
  if (config.pageCache.maxBytes <= 0) return null;
  const cache = new PageCache(
    config.pageCache.maxBytes,
    config.pageCache.ttlSeconds * 1000,
    Date.now,
    STALE_WHILE_REVALIDATE_SECONDS * 1000,
  );
  await database.onChange(() => cache.clear());
  return cache;
}
