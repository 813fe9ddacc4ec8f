/** The PostgreSQL databases the resilience checks make for a run, and those earlier runs left. */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { isAlive } from "../server/db/lock";

/** A new database `<prefix>_<pid>_<6 hex digits>` on `admin`'s server: its name and its URL. */
export async function createRunDatabase(
  admin: pg.Client,
  adminUrl: string,
  prefix: string,
): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** An interrupted run could not drop its database: those of runs no longer alive go now. */
export async function dropStaleDatabases(admin: pg.Client, prefix: string): Promise<void> {
  const earlier = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname ~ '^${prefix}_[0-9]+_[0-9a-f]{6}$'`,
  );
  for (const { datname } of earlier.rows) {
    const pid = Number(datname.split("_")[1]);
    if (pid !== process.pid && !isAlive(pid)) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
    }
  }
}
