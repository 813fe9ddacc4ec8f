import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
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
   * once when another holder has it.
   */
  withLock<T>(
    lockId: number,
    options: { wait: boolean },
    work: () => Promise<T>,
  ): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /** Answers true when a trivial query succeeds. */
  ping(): Promise<boolean>;
  /** Flushes and closes; for PGlite this is what makes the data directory safe to reopen. */
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "migrations",
);

/** Any fixed number: all processes on one PostgreSQL database take the same lock while migrating. */
const MIGRATION_LOCK_ID = 7_241_001;

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
  // An idle client that loses its server emits 'error'; without a listener that would end the process.
  pool.on("error", () => undefined);
  const db = drizzlePg(pool, { schema });
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
        try {
          return { acquired: true, value: await work() };
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [lockId]).catch(() => {});
        }
      } finally {
        client.release();
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string, owner: string): Promise<DatabaseHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock = acquireDataDirLock(dataDir, owner);
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema });
  let closed = false;
  const held = new Map<number, Promise<unknown>>();
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    // Only this process can open the directory, so an in-process lock is the whole story.
    async withLock(lockId, options, work) {
      while (held.has(lockId)) {
        if (!options.wait) return { acquired: false };
        await held.get(lockId)?.catch(() => {});
      }
      const running = work();
      held.set(lockId, running);
      try {
        return { acquired: true, value: await running };
      } finally {
        held.delete(lockId);
      }
    },
    ping: () => ping(db),
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
