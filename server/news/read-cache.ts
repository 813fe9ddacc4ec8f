import { LRUCache } from "lru-cache";
import type { Config } from "../config";
import type { Database, DatabaseHandle } from "../db/client";

/** What an entry is thought to cost besides its value's own text: the key, the map, the objects. */
const ENTRY_OVERHEAD_BYTES = 256;

/** An answer in a box: lru-cache keeps no `undefined`, and a read may answer it (no such article). */
interface Answer {
  answer: unknown;
}

/**
 * The answers of article reads (a page's lists, an article), kept in memory until articles change:
 * the same signal that empties the page cache empties this, so a page rendered afresh reads what
 * the database holds now, and the database is off the path of a page whose cache entry expired or
 * that the page cache does not keep (another URL for the same lists, `PAGE_CACHE_MB=0`).
 *
 * Readers that ask for one key at the same moment share one read; a failed read is not kept, so the
 * next reader tries the database again. Least recently used entries go first once the estimated
 * bytes exceed `maxBytes`, and none is kept longer than `ttlMs`. Answers are frozen: every reader
 * shares them, so none may change them. lru-cache's `fetch` does the keeping (decision 034).
 */
export class ReadCache {
  private readonly entries: LRUCache<string, Answer, () => Promise<unknown>>;
  private outcomes = { hit: 0, miss: 0 };

  constructor(
    readonly maxBytes: number,
    readonly ttlMs: number,
    now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      // A read under way counts 1 byte (lru-cache's `backgroundFetchSize`) until it answers.
      sizeCalculation: ({ answer }, key) =>
        ENTRY_OVERHEAD_BYTES + key.length + estimatedBytes(answer),
      ttl: ttlMs,
      fetchMethod: async (_key, _stale, { context }) => ({ answer: deepFreeze(await context()) }),
      // Emptied (articles changed) while a read was under way: its readers get its answer, which
      // is not kept.
      ignoreFetchAbort: true,
      // Our clock 1 ms on: lru-cache reads a start of 0 as "no TTL", and a test's clock starts at 0.
      perf: { now: () => now() + 1 },
      ttlResolution: 0,
    });
  }

  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const status: LRUCache.Status<string, Answer, () => Promise<unknown>> = {};
    // `forceFetch` is `fetch` typed to answer or throw, never to give `undefined`.
    const found = this.entries.forceFetch(key, { context: load, status });
    // Answered from memory, or from a read another reader started.
    if (status.fetch === "hit" || status.fetch === "inflight") this.outcomes.hit++;
    else this.outcomes.miss++;
    return (await found).answer as T;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** Hits and misses since the last call (metrics read them when scraped). */
  takeOutcomes(): { hit: number; miss: number } {
    const taken = this.outcomes;
    this.outcomes = { hit: 0, miss: 0 };
    return taken;
  }
}

/** The text an answer holds, as UTF-16 in memory: what dominates an article list's size. */
function estimatedBytes(value: unknown): number {
  if (value === undefined) return 0;
  return 2 * (JSON.stringify(value)?.length ?? 0);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Each database's cache, set up by the web server; a database without one is read every time. The
 * web process and React Router's server build (where the loaders run) each bundle this module, so
 * the map is kept under a global symbol both copies find.
 */
const CACHES = Symbol.for("sd-local-news.read-caches");
const caches: WeakMap<Database, ReadCache> = ((
  globalThis as { [CACHES]?: WeakMap<Database, ReadCache> }
)[CACHES] ??= new WeakMap());

/**
 * `read`, answered from the cache of the database it is given when that database has one: the
 * article reads the pages make are wrapped in this where they are defined, so loaders, the
 * command-line tools and tests call them as before.
 */
export function remembered<Args extends unknown[], T>(
  name: string,
  read: (db: Database, ...args: Args) => Promise<T>,
): (db: Database, ...args: Args) => Promise<T> {
  return (db, ...args) => {
    const cache = caches.get(db);
    if (!cache) return read(db, ...args);
    return cache.read(`${name}:${JSON.stringify(args)}`, () => read(db, ...args));
  };
}

/**
 * The read cache the configuration asks for (none when READ_CACHE_MB is 0), attached to the
 * database so its article reads go through it, and emptied whenever any process on the database
 * announces changed articles (and when a lost listening connection comes back).
 */
export async function readCacheFor(
  config: Config,
  database: Pick<DatabaseHandle, "db" | "onChange">,
): Promise<ReadCache | null> {
  if (config.readCache.maxBytes <= 0) return null;
  const cache = new ReadCache(config.readCache.maxBytes, config.pageCache.ttlSeconds * 1000);
  await database.onChange(() => cache.clear());
  caches.set(database.db, cache);
  return cache;
}
