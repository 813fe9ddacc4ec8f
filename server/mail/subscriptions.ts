import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { CONFIRM_TOKEN_HOURS } from "../../app/lib/newsletter";
import type { Database } from "../db/client";
import { newsletterSubscribers, newsletterSuppressions } from "../db/schema";
import { siteSecret } from "../db/secrets";
import { normaliseEmail } from "../forms/repository";

/**
 * The newsletter's subscriptions (decision 026): double opt-in with single-use, expiring tokens
 * kept as hashes, unsubscribe links that never expire, and the suppression list.
 */

export { CONFIRM_TOKEN_HOURS };

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";
export type SuppressionReason = "unsubscribed" | "bounced";

const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/** A confirmation to send: the address and the token its link carries (never stored as such). */
export interface ConfirmationToSend {
  subscriberId: number;
  email: string;
  token: string;
}

/**
 * A signup. Answers the confirmation mail to send, or null when none is due: the address is
 * confirmed already, bounced, or had one within `resendMinutes`. The caller answers the reader the
 * same way in every case, so the form tells nobody which addresses are on the list.
 */
export async function requestSubscription(
  db: Database,
  email: string,
  options: { now: Date; resendMinutes: number },
): Promise<ConfirmationToSend | null> {
  const address = normaliseEmail(email);
  const [suppressed] = await db
    .select({ reason: newsletterSuppressions.reason })
    .from(newsletterSuppressions)
    .where(eq(newsletterSuppressions.email, address));
  // A mail server refused this address for good: mailing it again hurts every reader's delivery.
  if (suppressed?.reason === "bounced") return null;
  await db
    .insert(newsletterSubscribers)
    .values({ email: address, status: "pending" })
    .onConflictDoNothing({ target: newsletterSubscribers.email });
  const token = randomBytes(32).toString("base64url");
  const resendAfter = new Date(options.now.getTime() - options.resendMinutes * 60_000);
  // One statement decides and claims, so two signups at once send one mail. An unsubscribed
  // address gets a confirmation too: confirming is what lifts its suppression.
  const [row] = await db
    .update(newsletterSubscribers)
    .set({
      confirmTokenHash: hashToken(token),
      confirmExpiresAt: new Date(options.now.getTime() + CONFIRM_TOKEN_HOURS * 3_600_000),
      confirmSentAt: options.now,
    })
    .where(
      and(
        eq(newsletterSubscribers.email, address),
        sql`${newsletterSubscribers.status} <> 'confirmed'`,
        or(
          isNull(newsletterSubscribers.confirmSentAt),
          lte(newsletterSubscribers.confirmSentAt, resendAfter),
        ),
      ),
    )
    .returning({ id: newsletterSubscribers.id });
  return row ? { subscriberId: row.id, email: address, token } : null;
}

/** Whether a confirmation token is one that would confirm now (for the page its link opens). */
export async function confirmationTokenValid(
  db: Database,
  token: string,
  now: Date,
): Promise<boolean> {
  if (!token) return false;
  const [row] = await db
    .select({ id: newsletterSubscribers.id })
    .from(newsletterSubscribers)
    .where(
      and(
        eq(newsletterSubscribers.confirmTokenHash, hashToken(token)),
        gt(newsletterSubscribers.confirmExpiresAt, now),
      ),
    );
  return row !== undefined;
}

/** Confirms the address a token was sent to; the token works once. */
export async function confirmSubscription(
  db: Database,
  token: string,
  now: Date,
): Promise<{ confirmed: boolean }> {
  if (!token) return { confirmed: false };
  const [row] = await db
    .update(newsletterSubscribers)
    .set({
      status: "confirmed",
      confirmedAt: now,
      unsubscribedAt: null,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    })
    .where(
      and(
        eq(newsletterSubscribers.confirmTokenHash, hashToken(token)),
        gt(newsletterSubscribers.confirmExpiresAt, now),
      ),
    )
    .returning({ email: newsletterSubscribers.email });
  if (!row) return { confirmed: false };
  // The reader asked again and proved the mailbox is theirs: an earlier unsubscribe is lifted.
  await db
    .delete(newsletterSuppressions)
    .where(
      and(
        eq(newsletterSuppressions.email, row.email),
        eq(newsletterSuppressions.reason, "unsubscribed"),
      ),
    );
  return { confirmed: true };
}

async function unsubscribeKey(db: Database): Promise<Buffer> {
  return siteSecret(db, "newsletter-unsubscribe");
}

/**
 * The token of a subscriber's unsubscribe links: its id and a keyed hash of it. It is never
 * stored and never expires, so the link in any mail ever sent keeps working.
 */
export async function unsubscribeToken(db: Database, subscriberId: number): Promise<string> {
  const mac = createHmac("sha256", await unsubscribeKey(db))
    .update(`unsubscribe:${subscriberId}`)
    .digest("base64url");
  return `${subscriberId}.${mac}`;
}

/** The subscriber an unsubscribe token names, or null when it is not one of ours. */
export async function subscriberOfToken(db: Database, token: string): Promise<number | null> {
  const match = /^(\d{1,10})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(await unsubscribeToken(db, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** Unsubscribes whoever the token names and suppresses the address; doing it twice is harmless. */
export async function unsubscribe(
  db: Database,
  token: string,
  now: Date,
): Promise<{ unsubscribed: boolean }> {
  const id = await subscriberOfToken(db, token);
  if (id === null) return { unsubscribed: false };
  const [row] = await db
    .update(newsletterSubscribers)
    .set({
      status: "unsubscribed",
      unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, ${now.toISOString()}::timestamptz)`,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    })
    .where(eq(newsletterSubscribers.id, id))
    .returning({ email: newsletterSubscribers.email });
  if (!row) return { unsubscribed: false };
  await suppress(db, row.email, "unsubscribed");
  return { unsubscribed: true };
}

/** Puts an address on the suppression list; a bounce replaces an earlier reason. */
export async function suppress(
  db: Database,
  email: string,
  reason: SuppressionReason,
  detail: string | null = null,
): Promise<void> {
  const address = normaliseEmail(email);
  if (reason === "unsubscribed") {
    await db
      .update(newsletterSubscribers)
      .set({
        status: "unsubscribed",
        unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, now())`,
        confirmTokenHash: null,
        confirmExpiresAt: null,
      })
      .where(eq(newsletterSubscribers.email, address));
  }
  const insert = db.insert(newsletterSuppressions).values({ email: address, reason, detail });
  await (reason === "bounced"
    ? insert.onConflictDoUpdate({
        target: newsletterSuppressions.email,
        set: { reason, detail },
      })
    : insert.onConflictDoNothing());
}

export interface SubscriberListing {
  email: string;
  status: SubscriberStatus;
  /** Why the address is suppressed, if it is. */
  suppressed: SuppressionReason | null;
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

/**
 * Subscribers with their state and any suppression, in the order given, `limit` from `offset`
 * (all when absent): the command line lists them all, the newsroom a page at a time.
 */
export async function listSubscriptions(
  db: Database,
  options: { newestFirst?: boolean; limit?: number; offset?: number } = {},
): Promise<SubscriberListing[]> {
  const query = db
    .select({
      email: newsletterSubscribers.email,
      status: newsletterSubscribers.status,
      suppressed: newsletterSuppressions.reason,
      createdAt: newsletterSubscribers.createdAt,
      confirmedAt: newsletterSubscribers.confirmedAt,
      unsubscribedAt: newsletterSubscribers.unsubscribedAt,
    })
    .from(newsletterSubscribers)
    .leftJoin(newsletterSuppressions, eq(newsletterSuppressions.email, newsletterSubscribers.email))
    .orderBy(
      ...(options.newestFirst
        ? [desc(newsletterSubscribers.id)]
        : [newsletterSubscribers.createdAt, newsletterSubscribers.id]),
    )
    .$dynamic();
  if (options.limit !== undefined) query.limit(options.limit).offset(options.offset ?? 0);
  const rows = await query;
  return rows.map((row) => ({
    ...row,
    status: row.status as SubscriberStatus,
    suppressed: row.suppressed as SuppressionReason | null,
  }));
}
