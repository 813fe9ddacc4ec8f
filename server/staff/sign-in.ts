import type { Database } from "../db/client";
import { findStaff, type StaffMember } from "./accounts";
import { recordAudit } from "./audit";
import { verifyPassword } from "./passwords";
import { startSession } from "./sessions";
import { countSignInAttempt, signInSucceeded } from "./throttle";

/** The one answer to a wrong e-mail and to a wrong password alike. */
export const SIGN_IN_REFUSED = "That e-mail address and password do not match a staff account.";
export const SIGN_IN_LOCKED =
  "Too many failed sign-ins. For your account's safety, try again in 15 minutes.";

export type SignInOutcome =
  | { kind: "signed-in"; member: StaffMember; token: string }
  | { kind: "refused"; error: string; status: 401 | 429 };

/**
 * Checks an e-mail and password and, when they match, starts a session (ending any session the
 * browser held: a session token is never kept across sign-in). Failures count against the e-mail
 * given and the address, whether or not the account exists.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string; address: string; previousToken: string | null },
  now = new Date(),
): Promise<SignInOutcome> {
  // Counted as a failure before the password is checked: tries sent at once cannot all pass the
  // limit while each is being checked.
  const attempt = await countSignInAttempt(db, input.email, input.address, now);
  if (attempt.locked) return { kind: "refused", error: SIGN_IN_LOCKED, status: 429 };
  const found = await findStaff(db, input.email);
  const matches = await verifyPassword(found?.passwordHash ?? null, input.password);
  if (!found || !matches) return { kind: "refused", error: SIGN_IN_REFUSED, status: 401 };
  await signInSucceeded(db, attempt);
  const token = await startSession(db, found.id, now, input.previousToken);
  const member: StaffMember = { id: found.id, email: found.email, role: found.role };
  await recordAudit(db, member, { action: "sign-in" });
  return { kind: "signed-in", member, token };
}

/** Where a member goes after signing in: a newsroom page they asked for, or the newsroom's home. */
export function afterSignIn(next: FormDataEntryValue | null): string {
  if (typeof next !== "string") return "/newsroom";
  return /^\/newsroom(\/[\w\-/]*)?(\?[^#\s]*)?$/.test(next) && !next.includes("//")
    ? next
    : "/newsroom";
}
