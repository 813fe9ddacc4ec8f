import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { adminQuery } from "./admin";
import { openDatabase, type DatabaseHandle } from "./client";

/**
 * The databases a repository test runs against: PGlite always, PostgreSQL too when
 * TEST_DATABASE_URL is set. Each call gets an empty database of its own; a PGlite one is already
 * migrated (a copy of a migrated template), so the test's own `migrate()` finds nothing to do. A
 * PostgreSQL one is migrated by the test: `CREATE DATABASE … TEMPLATE` of a migrated database took
 * longer (0.2–0.4 s) than an empty one and the migrations (0.2 s).
 */
export interface TestDatabase {
  name: "pglite" | "postgres";
  /** `url` is the PostgreSQL database's own address (absent for PGlite). */
  open(): Promise<DatabaseHandle & { dispose(): Promise<void>; url?: string }>;
}

/**
 * An empty, migrated PGlite directory made once per test process: a new directory costs an initdb
 * and the migrations (seconds), a copy of this one a fraction of a second to open.
 */
let template: Promise<string> | null = null;

function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-test-template-"));
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "a test template" });
    // Migrated once here: each test's copy would otherwise run every migration again (0.25 s).
    await handle.migrate();
    await handle.close();
    process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
    return dataDir;
  })();
  return template;
}

async function openPgliteForTest() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-test-db-"));
  fs.cpSync(await pgliteTemplate(), dataDir, { recursive: true });
  const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "a test" });
  return {
    ...handle,
    async dispose() {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgresForTest(adminUrl: string) {
  const name = `news_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString() }, { owner: "a test" });
  return {
    ...handle,
    url: url.toString(),
    async dispose() {
      await handle.close();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: "pglite", open: openPgliteForTest }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) list.push({ name: "postgres", open: () => openPostgresForTest(url) });
  return list;
}

/** Says plainly, once, when the PostgreSQL half of the suite is not run. */
export function reportSkippedPostgres(): void {
  if (!process.env.TEST_DATABASE_URL) {
    console.warn(
      "TEST_DATABASE_URL is not set: repository tests ran on PGlite only, NOT on PostgreSQL.",
    );
  }
}

/**
 * The rows of `pg_locks` that say a session holds the advisory lock `lockId` (taken with one bigint
 * key: its high and low 32 bits, objsubid 1) in the current database. `pg_locks` covers the whole
 * server, where other databases (tests running alongside) may hold the same lock.
 */
export function advisoryLockHeld(lockId: number): string {
  return `locktype = 'advisory' AND granted AND objsubid = 1
    AND classid = ${Math.floor(lockId / 2 ** 32)} AND objid = ${lockId % 2 ** 32}
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
}

/**
 * Ends the session holding the advisory lock `lockId` on the PostgreSQL database at `url`, as a
 * restart or an administrator would. Answers the session's pid, or undefined when nobody held it.
 */
export async function endLockHolder(url: string, lockId: number): Promise<number | undefined> {
  const { rows } = await adminQuery(
    url,
    `SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_locks WHERE ${advisoryLockHeld(lockId)}`,
  );
  return (rows[0] as { pid: number } | undefined)?.pid;
}
