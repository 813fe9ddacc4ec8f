/**
 * Secrets compared and stored: by forms' signatures, staff sessions and newsletter confirmations.
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** Whether `given` is `expected`, compared in constant time (a signature, a token). */
export function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What is stored of a random token (a session's, a confirmation's): its sha256. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");
