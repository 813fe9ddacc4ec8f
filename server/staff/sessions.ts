import { createHmac, randomBytes } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import { and, eq, lt, or } from "drizzle-orm";
import type { Database } from "../db/client";
import { siteSecret } from "../db/secrets";
import { sameText, tokenHash } from "../lib/tokens";
import { staff, staffSessions } from "../db/schema";
import { isStaffRole, type StaffMember } from "./accounts";

/**
 * Newsroom sessions, kept in the database (every process and machine sees the same ones): the
 * browser holds a random token in a cookie scoped to /newsroom, the database its sha256. A session
 * ends at sign-out, after an hour unused, and twelve hours after sign-in whatever the use.
 */

export const SESSION_COOKIE = "newsroom_session";
const NEWSROOM_PATH = "/newsroom";
export const IDLE_TIMEOUT_MS = 60 * 60_000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/** Use is written at most this often, so a busy editor's pages do not each write a row. */
const TOUCH_EVERY_MS = 60_000;

const TOKEN = /^[\w-]{43}$/;

export interface StaffSession {
  member: StaffMember;
  /** The cookie's token, for the form token and sign-out. */
  token: string;
}

/** Starts a session; any session the browser still held ends (a token is never reused). */
export async function startSession(
  db: Database,
  staffId: number,
  now: Date,
  previousToken?: string | null,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    if (previousToken && TOKEN.test(previousToken)) {
      await tx.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(previousToken)));
    }
    // Sessions of this account that have run out are cleared on the way.
    await tx
      .delete(staffSessions)
      .where(
        and(
          eq(staffSessions.staffId, staffId),
          or(
            lt(staffSessions.expiresAt, now),
            lt(staffSessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS)),
          ),
        ),
      );
    await tx.insert(staffSessions).values({
      tokenHash: tokenHash(token),
      staffId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ABSOLUTE_TIMEOUT_MS),
    });
  });
  return token;
}

/** The signed-in member a token belongs to, or null (unknown, idle too long, or past its end). */
export async function sessionFor(
  db: Database,
  token: string | null,
  now: Date,
): Promise<StaffSession | null> {
  if (!token || !TOKEN.test(token)) return null;
  const hash = tokenHash(token);
  const [row] = await db
    .select({
      lastSeenAt: staffSessions.lastSeenAt,
      expiresAt: staffSessions.expiresAt,
      id: staff.id,
      email: staff.email,
      role: staff.role,
    })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .where(eq(staffSessions.tokenHash, hash));
  if (!row) return null;
  const idleSince = now.getTime() - row.lastSeenAt.getTime();
  if (row.expiresAt.getTime() <= now.getTime() || idleSince > IDLE_TIMEOUT_MS) {
    await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hash));
    return null;
  }
  if (idleSince > TOUCH_EVERY_MS) {
    await db
      .update(staffSessions)
      .set({ lastSeenAt: now })
      .where(eq(staffSessions.tokenHash, hash));
  }
  const role = isStaffRole(row.role) ? row.role : "editor";
  return { member: { id: row.id, email: row.email, role }, token };
}

export async function endSession(db: Database, token: string | null): Promise<void> {
  if (!token || !TOKEN.test(token)) return;
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, tokenHash(token)));
}

/** The session cookie's value in a request, if any. */
export function sessionToken(request: Request): string | null {
  return parseCookie(request.headers.get("Cookie") ?? "")[SESSION_COOKIE] || null;
}

/** `Set-Cookie` for a new session: only /newsroom sees it, never a script, never another site. */
export function sessionCookie(token: string, siteUrl: string): string {
  return stringifySetCookie(SESSION_COOKIE, token, {
    path: NEWSROOM_PATH,
    httpOnly: true,
    sameSite: "lax",
    maxAge: token ? ABSOLUTE_TIMEOUT_MS / 1000 : 0,
    secure: siteUrl.startsWith("https:"),
  });
}

export function clearedSessionCookie(siteUrl: string): string {
  return sessionCookie("", siteUrl);
}

/**
 * The token every newsroom form carries (the synchroniser-token pattern, bound to the session):
 * a keyed hash of the session's token, so it cannot be made without the cookie's value.
 */
export async function csrfToken(db: Database, session: StaffSession): Promise<string> {
  const secret = await siteSecret(db, "newsroom-csrf");
  return createHmac("sha256", secret).update(tokenHash(session.token)).digest("base64url");
}

export async function csrfTokenMatches(
  db: Database,
  session: StaffSession,
  given: FormDataEntryValue | null,
): Promise<boolean> {
  if (typeof given !== "string") return false;
  return sameText(given, await csrfToken(db, session));
}
