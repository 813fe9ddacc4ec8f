import type { Database } from "../db/client";
import { databaseRateLimits } from "../lib/rate-limit";
import { normaliseEmail } from "../forms/repository";

/**
 * Failed sign-ins are counted in the database, so every process and machine counts together: five
 * for one account or twenty from one address within fifteen minutes lock further tries from it
 * until the oldest falls out of the window. Only keyed hashes of the e-mail and the address are
 * stored (server/lib/rate-limit.ts).
 */
export const WINDOW_MS = 15 * 60_000;
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;

/** An attempt counted before its password is checked: the keys and the time it counts under. */
export type SignInAttempt = { locked: boolean; account: string; address: string; at: number };

/**
 * Counts a sign-in attempt before its password is checked, so attempts sent at once are counted
 * one after another: each sees every attempt before it and adds itself. One that finds the account
 * or the address at its limit is refused and not added (a refused attempt does not lengthen the
 * lockout); the others stand as failures unless the password matches.
 */
export async function countSignInAttempt(
  db: Database,
  email: string,
  address: string,
  now: Date,
): Promise<SignInAttempt> {
  const attempt = {
    account: `sign-in-account:${normaliseEmail(email)}`,
    address: `sign-in-address:${address}`,
    at: now.getTime(),
  };
  const verdict = await databaseRateLimits(db).hit(
    [
      { key: attempt.account, limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS },
      { key: attempt.address, limit: ADDRESS_LIMIT, windowMs: WINDOW_MS },
    ],
    attempt.at,
  );
  return { locked: !verdict.allowed, ...attempt };
}

/**
 * A sign-in that matched: its account's count is cleared, and the attempt no longer counts against
 * its address (earlier failures from the address still do).
 */
export async function signInSucceeded(db: Database, attempt: SignInAttempt): Promise<void> {
  const limits = databaseRateLimits(db);
  await limits.forget(attempt.account);
  await limits.forget(attempt.address, attempt.at);
}
