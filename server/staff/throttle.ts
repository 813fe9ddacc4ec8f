import { createHmac } from "node:crypto";
import { and, count, eq, gt, inArray, lt, or } from "drizzle-orm";
import { lockForTransaction, type Database } from "../db/client";
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

/** An attempt counted before its password is checked: the rows that count it. */
export interface SignInAttempt {
  locked: boolean;
  ids: number[];
}

/** The first key of the advisory locks that count attempts (the second is the key's hash). */
const ATTEMPT_LOCK_CLASS = 7_302_115;

/**
 * Counts a sign-in attempt before its password is checked, so attempts sent at once are counted
 * one after another: under a lock per account and per address (held for the count, not the
 * password check), each sees every attempt before it and adds itself. One that finds the account
 * or the address at its limit is refused and not added (a refused attempt does not lengthen the
 * lockout); the others stand as failures unless the password matches.
 */
export async function countSignInAttempt(
  db: Database,
  email: string,
  address: string,
  now: Date,
): Promise<SignInAttempt> {
  const { account, address: from } = await keys(db, email, address);
  const since = new Date(now.getTime() - WINDOW_MS);
  return db.transaction(async (tx) => {
    // Always the account first, then the address: two attempts never wait on each other in a ring.
    for (const key of [account, from]) {
      await lockForTransaction(tx, ATTEMPT_LOCK_CLASS, key);
    }
    const rows = await tx
      .select({ key: signInFailures.key, n: count() })
      .from(signInFailures)
      .where(and(inArray(signInFailures.key, [account, from]), gt(signInFailures.createdAt, since)))
      .groupBy(signInFailures.key);
    const counted = new Map(rows.map((row) => [row.key, row.n]));
    if ((counted.get(account) ?? 0) >= ACCOUNT_LIMIT || (counted.get(from) ?? 0) >= ADDRESS_LIMIT) {
      return { locked: true, ids: [] };
    }
    await tx.delete(signInFailures).where(lt(signInFailures.createdAt, since));
    const added = await tx
      .insert(signInFailures)
      .values([
        { key: account, createdAt: now },
        { key: from, createdAt: now },
      ])
      .returning({ id: signInFailures.id });
    return { locked: false, ids: added.map((row) => row.id) };
  });
}

/**
 * A sign-in that matched: its account's count is cleared, and the attempt no longer counts against
 * its address (earlier failures from the address still do).
 */
export async function signInSucceeded(
  db: Database,
  email: string,
  attempt: SignInAttempt,
): Promise<void> {
  const { account } = await keys(db, email, "");
  await db
    .delete(signInFailures)
    .where(or(eq(signInFailures.key, account), inArray(signInFailures.id, attempt.ids)));
}
