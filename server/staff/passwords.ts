import { hash, verify, type Options } from "@node-rs/argon2";

/**
 * Staff passwords, hashed with argon2id at OWASP's minimum parameters (19 MiB of memory, two
 * passes, one lane: the Password Storage Cheat Sheet's first configuration). The PHC string keeps
 * the parameters and salt, so stronger parameters later still verify older hashes.
 */
const OPTIONS: Options = {
  // Algorithm.Argon2id: the package's enum is a `const enum`, which this build cannot import.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Shortest password accepted (NIST SP 800-63B: at least 8; a newsroom's accounts deserve more). */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest accepted, so a huge password cannot be used to make hashing slow. */
export const MAX_PASSWORD_LENGTH = 256;

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  }
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash made once, checked against when the e-mail is unknown, so both answers take as long. */
let decoy: Promise<string> | null = null;

/**
 * Makes the decoy hash, at start: made on the first unknown sign-in instead, that answer would take
 * a hash's time longer than any other and tell that the e-mail has no account.
 */
export async function prepareDecoyHash(): Promise<void> {
  decoy ??= hashPassword("a password no account has");
  await decoy;
}

/** Whether the decoy hash is made (for tests). */
export async function decoyHashReady(): Promise<boolean> {
  if (decoy === null) return false;
  const pending = Symbol("pending");
  return (await Promise.race([decoy, Promise.resolve(pending)])) !== pending;
}

/** Whether `password` is the one `stored` was made from; with no account, the same work is done. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (stored === null) {
    decoy ??= hashPassword("a password no account has");
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
