import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
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

export function strongEtag(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Compresses a rendered body both ways, at levels that suit pages served many times. */
export async function cachedPage(
  page: Omit<CachedPage, "gzip" | "br" | "etag" | "storedAt">,
  now: number,
): Promise<CachedPage> {
  const [br, gz] = await Promise.all([
    brotli(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
    gzip(page.body, { level: 9 }),
  ]);
  return { ...page, br, gzip: gz, etag: strongEtag(page.body), storedAt: now };
}

const sizeOf = (page: CachedPage) => page.body.length + page.gzip.length + page.br.length;

/**
 * Rendered pages by URL, least recently used dropped first once the bytes exceed `maxBytes`, each
 * kept for `ttlMs` (or less, as its `s-maxage` says). Emptied whenever ingest stores new or changed articles.
 */
export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (this.now() - page.storedAt > Math.min(this.ttlMs, page.lifeMs ?? Infinity)) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last.
    this.pages.delete(key);
    this.pages.set(key, page);
    return page;
  }

  set(key: string, page: CachedPage): void {
    const size = sizeOf(page);
    if (size > this.maxBytes) return;
    this.delete(key);
    this.pages.set(key, page);
    this.bytes += size;
    for (const [oldest, old] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(oldest);
      this.bytes -= sizeOf(old);
    }
  }

  clear(): void {
    this.pages.clear();
    this.bytes = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.pages.size, bytes: this.bytes };
  }

  private delete(key: string) {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.bytes -= sizeOf(page);
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
  const cache = new PageCache(config.pageCache.maxBytes, config.pageCache.ttlSeconds * 1000);
  await database.onChange(() => cache.clear());
  return cache;
}
