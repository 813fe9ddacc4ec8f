import type { Config } from "../config";
import type { Database, DatabaseHandle } from "../db/client";

/** What an entry is thought to cost besides its value's own text: the key, the map, the objects. */
const ENTRY_OVERHEAD_BYTES = 256;

interface Entry {
  value: Promise<unknown>;
  /** Estimated bytes; 0 while the read is under way (it is counted once it answers). */
  bytes: number;
  storedAt: number;
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
 * shares them, so none may change them.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private outcomes = { hit: 0, miss: 0 };

  constructor(
    readonly maxBytes: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.storedAt <= this.ttlMs) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.outcomes.hit++;
      return entry.value as Promise<T>;
    }
    if (entry) this.remove(key);
    this.outcomes.miss++;
    const value = load().then(deepFreeze);
    const stored: Entry = { value, bytes: 0, storedAt: this.now() };
    this.entries.set(key, stored);
    value.then(
      (answer) => {
        // Emptied (articles changed) or replaced while the read was under way: not counted.
        if (this.entries.get(key) !== stored) return;
        const bytes = ENTRY_OVERHEAD_BYTES + key.length + estimatedBytes(answer);
        if (bytes > this.maxBytes) {
          this.remove(key);
          return;
        }
        stored.bytes = bytes;
        this.bytes += bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === stored) this.remove(key);
      },
    );
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Hits and misses since the last call (metrics read them when scraped). */
  takeOutcomes(): { hit: number; miss: number } {
    const taken = this.outcomes;
    this.outcomes = { hit: 0, miss: 0 };
    return taken;
  }

  private evict() {
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      // A read still under way costs nothing yet and is about to be used.
      if (entry.bytes === 0) continue;
      this.remove(oldest);
    }
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
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
