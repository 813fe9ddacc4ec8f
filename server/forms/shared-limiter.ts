import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { formRateLimits } from "../db/schema";
import { siteSecret } from "../db/secrets";
import type { Logger } from "../logger";
import type { FormLimiter, RateLimiter, RateVerdict } from "./guard";

/** Rows whose last submission is older than the window are removed this often. */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Form submissions counted in the database, for web processes and machines that share one
 * PostgreSQL database: an address has one allowance whichever of them answers it. Each key holds
 * the times counted in the window, and one statement reads, decides and records under the row's
 * lock, so submissions at the same moment on two machines cannot both take the last place. Keys are
 * keyed hashes: no address is stored. When the database cannot answer, the process's own count
 * decides, as a lone process would.
 */
export function databaseFormLimiter(
  db: Database,
  own: RateLimiter,
  options: { logger?: Logger; now?: () => number } = {},
): FormLimiter {
  const now = options.now ?? Date.now;
  const { limit, windowMs } = own;
  let nextSweep = 0;
  return {
    async hit(key) {
      try {
        const secret = await siteSecret(db, "form-rate-limit");
        const hashed = createHmac("sha256", secret).update(key).digest("base64url");
        const at = new Date(now());
        const since = new Date(at.getTime() - windowMs);
        const recent = sql`ARRAY(SELECT h FROM unnest(${formRateLimits.hits}) h WHERE h > ${since.toISOString()}::timestamptz ORDER BY h)`;
        const [row] = await db
          .insert(formRateLimits)
          .values({ key: hashed, hits: [at], allowed: true, updatedAt: at })
          .onConflictDoUpdate({
            target: formRateLimits.key,
            set: {
              allowed: sql`cardinality(${recent}) < ${limit}`,
              hits: sql`CASE WHEN cardinality(${recent}) < ${limit}
                          THEN ${recent} || ${at.toISOString()}::timestamptz ELSE ${recent} END`,
              updatedAt: at,
            },
          })
          .returning({ allowed: formRateLimits.allowed, hits: formRateLimits.hits });
        if (at.getTime() >= nextSweep) {
          nextSweep = at.getTime() + SWEEP_EVERY_MS;
          await db.delete(formRateLimits).where(lt(formRateLimits.updatedAt, since));
        }
        if (!row || row.allowed) return { allowed: true } satisfies RateVerdict;
        const oldest = row.hits[0]?.getTime() ?? at.getTime();
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at.getTime()) / 1000)),
        };
      } catch (error) {
        options.logger?.warn({ err: error }, "form submissions counted by this process alone");
        return own.hit(key);
      }
    },
  };
}
