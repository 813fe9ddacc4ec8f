import { createHmac } from "node:crypto";
import { inArray, lt, sql } from "drizzle-orm";
import { lockForTransaction, type Database } from "../db/client";
import { formRateLimits as rateLimitRows } from "../db/schema";
import { siteSecret } from "../db/secrets";
import type { Logger } from "../logger";

/**
 * The site's one rate limiter (decision 033): a sliding window, at most `limit` hits of a key in any
 * `windowMs`, kept as the times of the hits counted. A hit counts against all its keys (a sign-in's
 * account and address) or, when one has used its allowance, against none, so a refused hit never
 * lengthens a wait. Counted in memory for one process, or in the database for all on it.
 */

interface RateRule {
  key: string;
  limit: number;
  windowMs: number;
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimits {
  hit(rules: readonly RateRule[], now?: number): Promise<RateVerdict>;
  /** Takes back the key's hit counted at `at`, or all of its hits when `at` is left out. */
  forget(key: string, at?: number): Promise<void>;
}

/** Rows untouched this long are cleared, so no window may be longer. */
const LONGEST_WINDOW_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;
/** The first key of the advisory locks that count hits (the second is the key's hash). */
const COUNT_LOCK_CLASS = 7_302_115;

/** Each key's hits after a count, oldest first, in ms, and how long a refused hit must wait. */
type Counted = { hits: number[][]; retryAfterMs: number };

type Count = (stored: number[][]) => Counted;
/** Counts on the keys' stored hits, one count at a time per key, and stores what it returns. */
type Store = (keys: readonly string[], now: number, count: Count) => Promise<Counted>;

function countHit(rules: readonly RateRule[], now: number) {
  return (stored: number[][]): Counted => {
    const recent = rules.map(({ limit, windowMs }, i) => {
      const hits = (stored[i] ?? []).filter((t) => t > now - windowMs).sort((a, b) => a - b);
      // At its limit, a key has a place again when the hit `limit` from its newest leaves the window.
      return { hits, wait: hits.length < limit ? 0 : (hits.at(-limit) ?? now) + windowMs - now };
    });
    const retryAfterMs = Math.max(0, ...recent.map((key) => key.wait));
    return {
      hits: recent.map(({ hits }) => (retryAfterMs > 0 ? hits : [...hits, now])),
      retryAfterMs,
    };
  };
}

function limitsOn(store: Store): RateLimits {
  return {
    async hit(rules, now = Date.now()) {
      const keys = rules.map((rule) => rule.key);
      const { retryAfterMs } = await store(keys, now, countHit(rules, now));
      return retryAfterMs > 0
        ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
        : { allowed: true };
    },
    async forget(key, at) {
      await store([key], at ?? Date.now(), ([hits = []]) => ({
        hits: [at === undefined ? [] : hits.filter((_, i) => i !== hits.indexOf(at))],
        retryAfterMs: 0,
      }));
    },
  };
}

function memoryStore(maxKeys: number): Store {
  const counts = new Map<string, number[]>();
  return async (keys, _now, count) => {
    const counted = count(keys.map((key) => counts.get(key) ?? []));
    keys.forEach((key, i) => {
      // Re-inserted, so the map stays in order of last use and its first key is the stalest.
      counts.delete(key);
      const hits = counted.hits[i] ?? [];
      if (hits.length > 0) counts.set(key, hits);
    });
    for (const stalest of counts.keys()) {
      if (counts.size <= maxKeys) break;
      counts.delete(stalest);
    }
    return counted;
  };
}

/** Counted in this process; at most `maxKeys` keys are remembered, the stalest forgotten first. */
export function memoryRateLimits(maxKeys = 50_000): RateLimits {
  return limitsOn(memoryStore(maxKeys));
}

const nextSweep = new WeakMap<Database, number>();

function databaseStore(db: Database): Store {
  return async (keys, now, count) => {
    // Keyed hashes: no e-mail or address is stored.
    const secret = await siteSecret(db, "rate-limit");
    const hashed = keys.map((key) => createHmac("sha256", secret).update(key).digest("base64url"));
    const counted = await db.transaction(async (tx) => {
      // Locks taken in one order, so two counts never wait on each other in a ring.
      for (const key of hashed.toSorted()) await lockForTransaction(tx, COUNT_LOCK_CLASS, key);
      const rows = await tx
        .select({ key: rateLimitRows.key, hits: rateLimitRows.hits })
        .from(rateLimitRows)
        .where(inArray(rateLimitRows.key, hashed));
      const stored = new Map(rows.map((row) => [row.key, row.hits.map((hit) => hit.getTime())]));
      const result = count(hashed.map((key) => stored.get(key) ?? []));
      // A refused hit changes no count: nothing to write.
      if (result.retryAfterMs > 0) return result;
      await tx
        .insert(rateLimitRows)
        .values(
          hashed.map((key, i) => ({
            key,
            hits: (result.hits[i] ?? []).map((t) => new Date(t)),
            allowed: true,
            updatedAt: new Date(now),
          })),
        )
        .onConflictDoUpdate({
          target: rateLimitRows.key,
          set: { hits: sql`excluded.hits`, updatedAt: sql`excluded.updated_at` },
        });
      return result;
    });
    if (now >= (nextSweep.get(db) ?? 0)) {
      nextSweep.set(db, now + SWEEP_EVERY_MS);
      await db
        .delete(rateLimitRows)
        .where(lt(rateLimitRows.updatedAt, new Date(now - LONGEST_WINDOW_MS)));
    }
    return counted;
  };
}

/**
 * Counted in the database, so every process and machine on it shares one allowance per key, hits
 * at the same moment included. With `orInMemory`, a process whose database does not answer counts
 * alone, as a lone process would.
 */
export function databaseRateLimits(
  db: Database,
  options: { orInMemory?: boolean; logger?: Logger } = {},
): RateLimits {
  const shared = databaseStore(db);
  if (!options.orInMemory) return limitsOn(shared);
  const own = memoryStore(50_000);
  return limitsOn(async (keys, now, count) => {
    try {
      return await shared(keys, now, count);
    } catch (error) {
      options.logger?.warn({ err: error }, "rate limits counted by this process alone");
      return own(keys, now, count);
    }
  });
}
