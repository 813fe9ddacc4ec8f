import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Config } from "../config";
import { acquireDataDirLock, type DataDirLock } from "./lock";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Why a `withLock` signal aborted: the database ended the session that held the lock. */
export class LockLostError extends Error {
  constructor() {
    super("the database connection holding the lock was lost");
    this.name = "LockLostError";
  }
}

/**
 * Holds, until the transaction `tx` ends, an advisory lock named by `lockClass` (a number of the
 * caller's own) and `key`: transactions that take the same one run their locked part one at a
 * time, on PostgreSQL across every process (PGlite has one connection: they already do). The
 * two-number form keeps these apart from `withLock`'s single-number locks.
 */
export async function lockForTransaction(
  tx: Pick<Database, "execute">,
  lockClass: number,
  key: string,
): Promise<void> {
  const objectId = createHash("sha256").update(key).digest().readInt32BE(0);
  await tx.execute(sql`select pg_advisory_xact_lock(${lockClass}, ${objectId})`);
}

/** Rows of a raw `db.execute` result: both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface DatabaseHandle {
  db: Database;
  kind: Config["database"]["kind"];
  /** Applies every pending migration; safe to call from several processes at once on PostgreSQL. */
  migrate(): Promise<void>;
  /**
   * Runs `work` while holding a lock shared by every process on this database (a PostgreSQL advisory
   * lock; within the one process for PGlite). With `wait: false` it returns `{ acquired: false }` at
   * once when another holder has it. The signal `work` is given aborts if the lock is lost on the
   * way (PostgreSQL ended the session holding it): another process may take it now, so the work
   * should stop at its next safe point.
   */
  withLock<T>(
    lockId: number,
    options: { wait: boolean },
    work: (lockLost: AbortSignal) => Promise<T>,
  ): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /** Answers true when a trivial query succeeds. */
  ping(): Promise<boolean>;
  /**
   * Tells every process on this database (LISTEN/NOTIFY on PostgreSQL) that articles changed; this
   * process's own listeners have been told when it resolves.
   * `keys` name what the change touched (shared/cache-keys.ts): the handle itself ignores them;
   * one given a purger (server/cache/changes.ts, `withPurger`) purges them from the caches in front.
   */
  announceChange(keys?: readonly string[]): Promise<void>;
  /**
   * Calls `listener` whenever any process announces a change, and after a lost listening
   * connection comes back (changes may have been missed). Returns how to stop listening.
   */
  onChange(listener: () => void): Promise<() => void>;
  /** Flushes and closes; for PGlite this is what makes the data directory safe to reopen. */
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "migrations",
);

/** Any fixed number: all processes on one PostgreSQL database take the same lock while migrating. */
const MIGRATION_LOCK_ID = 7_241_001;

/** The PostgreSQL notification channel for changed articles. */
const CHANGE_CHANNEL = "news_articles_changed";

export interface OpenOptions {
  /** Who is opening the embedded database, shown to a second process that is refused. */
  owner: string;
}

export async function openDatabase(
  database: Config["database"],
  options: OpenOptions,
): Promise<DatabaseHandle> {
  return database.kind === "postgres"
    ? openPostgres(database.url)
    : openPglite(database.dataDir, options.owner);
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A stopped database must turn into a quick error page, not a hanging request.
    connectionTimeoutMillis: 2_000,
    query_timeout: 10_000,
  });
  // A client that loses its server emits 'error'; without a listener that would end the process.
  // The pool listens to its idle clients; a client checked out of it (a transaction, a lock held
  // through an ingest pass) is listened to here: the work on it fails, and the pool drops it when
  // it comes back.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = drizzlePg(pool, { schema });
  // Sent with this process's notifications, whose listeners are told without them (below).
  const sender = randomUUID();
  const changes = postgresChangeListener(url, sender);
  return {
    db,
    kind: "postgres",
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    async withLock(lockId, options, work) {
      const client = await pool.connect();
      try {
        if (options.wait) {
          await client.query("SELECT pg_advisory_lock($1)", [lockId]);
        } else {
          const { rows } = await client.query<{ locked: boolean }>(
            "SELECT pg_try_advisory_lock($1) AS locked",
            [lockId],
          );
          if (!rows[0]?.locked) return { acquired: false };
        }
        // The lock lives as long as this connection's session.
        const lost = new AbortController();
        const onLost = () => lost.abort(new LockLostError());
        client.once("error", onLost).once("end", onLost);
        try {
          return { acquired: true, value: await work(lost.signal) };
        } finally {
          client.off("error", onLost).off("end", onLost);
          await client.query("SELECT pg_advisory_unlock($1)", [lockId]).catch(() => {});
        }
      } finally {
        client.release();
      }
    },
    ping: () => ping(db),
    async announceChange() {
      await pool.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, sender]);
      // This process's listeners are told at once, not by its notification a round trip later: a
      // page asked for in between (the editor's next one) would be drawn from the old caches.
      changes.tell();
    },
    onChange: (listener) => changes.add(listener),
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

/**
 * One connection that LISTENs for change notifications while anyone listens, reconnecting every
 * few seconds when the database goes away.
 */
function postgresChangeListener(url: string, sender: string) {
  const listeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const emit = () => listeners.forEach((listener) => listener());

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    // Another process's notification; this one's own were told when sent.
    next.on("notification", (message) => {
      if (message.payload !== sender) emit();
    });
    next.on("error", () => reconnect(next));
    next.on("end", () => reconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
      client = next;
    } catch {
      reconnect(next);
    }
  };
  const reconnect = (failed: pg.Client) => {
    failed.removeAllListeners();
    failed.on("error", () => undefined);
    void failed.end().catch(() => undefined);
    if (client === failed) client = null;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      // Notifications sent while away are lost: whoever listens is told something may have changed.
      void connect().then(() => client && emit());
    }, 2_000);
    retry.unref();
  };

  return {
    /** Tells this process's listeners, as a notification would. */
    tell: emit,
    async add(listener: () => void) {
      listeners.add(listener);
      if (!client && !retry) await connect();
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * The embedded database's shared buffers for `bytes` of tables and indexes: an eighth of them,
 * from 16 MB to 64 MB. PostgreSQL's default 128 MB costs the process as much memory again inside
 * WebAssembly, and a new site's data fits in 16 MB; but a year of archive (about 500 MB) in 16 MB
 * reads the leaves of its large indexes (links, ids, first sightings: 15–20 MB each) through
 * WebAssembly's file layer on each new story, and its ingest pass was 1.1–1.2x a new site's
 * against about 1.03–1.08x with 64 MB (decision 030).
 */
export function sharedBuffersMb(bytes: number): number {
  return Math.min(64, Math.max(16, Math.round(bytes / 8 / 2 ** 20)));
}

/** The bytes of the files under `dir` (a PostgreSQL data directory's `base`), 0 when there is none. */
function storedBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

async function openPglite(dataDir: string, owner: string): Promise<DatabaseHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(dataDir, owner);
  let client: PGlite;
  try {
    const buffers = sharedBuffersMb(storedBytes(path.join(dataDir, "base")));
    client = await PGlite.create(dataDir, {
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${buffers}MB`],
      // Search's extensions (migration 0015): PGlite loads an extension only when given it here.
      extensions: { pg_trgm, unaccent },
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema });
  let closed = false;
  /** Per lock id, a promise settled (never rejected) when its holder's work has ended. */
  const held = new Map<number, Promise<void>>();
  const changeListeners = new Set<() => void>();
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // Only this process can open the directory, so an in-process lock is the whole story.
    async withLock(lockId, options, work) {
      while (held.has(lockId)) {
        if (!options.wait) return { acquired: false };
        await held.get(lockId);
      }
      // Held in this process's memory: it is lost only with the process. Taken before the work
      // starts, so a try from the work's first synchronous steps already finds it held.
      let release!: () => void;
      held.set(lockId, new Promise<void>((resolve) => (release = resolve)));
      try {
        return { acquired: true, value: await work(new AbortController().signal) };
      } finally {
        held.delete(lockId);
        release();
      }
    },
    ping: () => ping(db),
    // One process has the directory: telling its own listeners is telling everyone.
    async announceChange() {
      changeListeners.forEach((listener) => listener());
    },
    async onChange(listener) {
      changeListeners.add(listener);
      return () => void changeListeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock.release();
      }
    },
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}
