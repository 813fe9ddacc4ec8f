import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { MIGRATIONS_FOLDER, rowsOf, type Database } from "../db/client";

/** How many migrations this code ships (drizzle-kit's journal). */
function shippedMigrations(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"),
  ) as { entries: unknown[] };
  return journal.entries.length;
}

export interface Readiness {
  ready: boolean;
  database: "ok" | "unreachable";
  migrations: { applied: number | null; expected: number };
  lastIngest: { at: string | null; ageSeconds: number | null };
}

const appliedBelow = (n: number | string | undefined, expected: number) =>
  Number(n ?? 0) < expected;

/**
 * Ready when the database answers and has every migration this code ships. The last ingest time
 * is reported (an operator alerts on its age) but does not make the process unready: a site with
 * failing feeds still serves what it has.
 */
export async function readiness(db: Database, now = new Date()): Promise<Readiness> {
  const expected = shippedMigrations();
  try {
    const [table] = rowsOf<{ name: string | null }>(
      await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS name`),
    );
    const [applied] = table?.name
      ? rowsOf<{ n: number | string }>(
          await db.execute(sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`),
        )
      : [{ n: 0 }];
    if (appliedBelow(applied?.n, expected)) {
      return {
        ready: false,
        database: "ok",
        migrations: { applied: Number(applied?.n ?? 0), expected },
        lastIngest: { at: null, ageSeconds: null },
      };
    }
    const [last] = rowsOf<{ at: Date | string | null }>(
      await db.execute(sql`SELECT max(last_attempt_at) AS at FROM feeds`),
    );
    const at = last?.at ? new Date(last.at) : null;
    const appliedCount = Number(applied?.n ?? 0);
    return {
      ready: appliedCount >= expected,
      database: "ok",
      migrations: { applied: appliedCount, expected },
      lastIngest: {
        at: at?.toISOString() ?? null,
        ageSeconds: at ? Math.round((now.getTime() - at.getTime()) / 1000) : null,
      },
    };
  } catch {
    return {
      ready: false,
      database: "unreachable",
      migrations: { applied: null, expected },
      lastIngest: { at: null, ageSeconds: null },
    };
  }
}
