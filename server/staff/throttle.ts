import { createHmac } from "node:crypto";
import { and, count, eq, gt, inArray, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { siteSecret } from "../db/secrets";
import { signInFailures } from "../db/schema";
import { normalEmail } from "./accounts";

/**
 * Failed sign-ins are counted in the database, so every process and machine counts together: five
 * for one account or twenty from one address within fifteen minutes lock further tries from it
 * until the oldest falls out of the window. Neither the e-mail nor the address is stored, only a
 * keyed hash of each.
 */
export const WINDOW_MS = 15 * 60_000;
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;

async function keys(db: Database, email: string, address: string) {
  const secret = await siteSecret(db, "sign-in-throttle");
  const keyed = (value: string) => createHmac("sha256", secret).update(value).digest("base64url");
  return { account: `account:${keyed(normalEmail(email))}`, address: `address:${keyed(address)}` };
}

/** Whether tries from this address, or for this account, are locked out for now. */
export async function signInLocked(
  db: Database,
  email: string,
  address: string,
  now: Date,
): Promise<boolean> {
  const { account, address: from } = await keys(db, email, address);
  const since = new Date(now.getTime() - WINDOW_MS);
  const rows = await db
    .select({ key: signInFailures.key, n: count() })
    .from(signInFailures)
    .where(and(inArray(signInFailures.key, [account, from]), gt(signInFailures.createdAt, since)))
    .groupBy(signInFailures.key);
  const counted = new Map(rows.map((row) => [row.key, row.n]));
  return (counted.get(account) ?? 0) >= ACCOUNT_LIMIT || (counted.get(from) ?? 0) >= ADDRESS_LIMIT;
}

export async function recordSignInFailure(
  db: Database,
  email: string,
  address: string,
  now: Date,
): Promise<void> {
  const { account, address: from } = await keys(db, email, address);
  await db.insert(signInFailures).values([
    { key: account, createdAt: now },
    { key: from, createdAt: now },
  ]);
  await db
    .delete(signInFailures)
    .where(lt(signInFailures.createdAt, new Date(now.getTime() - WINDOW_MS)));
}

/** A successful sign-in clears its account's count (not its address's). */
export async function clearAccountFailures(db: Database, email: string): Promise<void> {
  const { account } = await keys(db, email, "");
  await db.delete(signInFailures).where(eq(signInFailures.key, account));
}
