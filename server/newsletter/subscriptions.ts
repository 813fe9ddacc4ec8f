import { createHmac, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { CONFIRM_TOKEN_HOURS } from "../../shared/newsletter";
import { lockForTransaction, type Database } from "../db/client";
import {
  newsletterConfirmations,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import { siteSecret } from "../db/secrets";
import { sameText, tokenHash } from "../lib/tokens";
import { normaliseEmail } from "../forms/repository";

/**
 * The newsletter's subscriptions (decision 026): double opt-in with single-use, expiring tokens
 * kept as hashes, unsubscribe links that never expire, and the suppression list.
 */

export { CONFIRM_TOKEN_HOURS };

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";
export type SuppressionReason = "unsubscribed" | "bounced";

/** A confirmation to send: the address and the token its link carries (never stored as such). */
export interface ConfirmationToSend {
  subscriberId: number;
  /** Names the subscriber in unsubscribe links (unsubscribeToken). */
  publicId: string;
  email: string;
  token: string;
}

/** Confirmation mails the site sends in an hour at most, unless configured otherwise. */
const DEFAULT_CONFIRMATIONS_PER_HOUR = 200;
const HOUR_MS = 3_600_000;

/** The first key of the advisory locks that count confirmations (the second is the mailbox's). */
const CONFIRMATION_LOCK_CLASS = 7_302_116;

/**
 * The mailbox an address delivers to, as far as the site can tell: `+tag` spellings of one address
 * (`ann+1@example.org`, `ann+2@…`) reach the same inbox, so they share one resend allowance.
 */
function mailboxOf(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/**
 * A signup. Answers the confirmation mail to send, or null when none is due: the address is
 * confirmed already, unsubscribed or bounced (a signup in someone else's name must not keep mailing
 * a reader who left: they come back from their own mail's unsubscribe page), its mailbox had one
 * within `resendMinutes` under any `+tag` spelling, or the site has sent `confirmationsPerHour` in
 * the last hour. The caller answers the reader the same way in every case, so the form tells nobody
 * which addresses are on the list.
 */
export async function requestSubscription(
  db: Database,
  email: string,
  options: { now: Date; resendMinutes: number; confirmationsPerHour?: number },
): Promise<ConfirmationToSend | null> {
  const address = normaliseEmail(email);
  const mailbox = mailboxOf(address);
  const [suppressed] = await db
    .select({ email: newsletterSuppressions.email })
    .from(newsletterSuppressions)
    .where(inArray(newsletterSuppressions.email, [address, mailbox]));
  if (suppressed) return null;
  await db
    .insert(newsletterSubscribers)
    .values({ email: address, status: "pending" })
    .onConflictDoNothing({ target: newsletterSubscribers.email });
  const token = randomBytes(32).toString("base64url");
  const resendAfter = new Date(options.now.getTime() - options.resendMinutes * 60_000);
  const hourAgo = new Date(options.now.getTime() - HOUR_MS);
  const cap = options.confirmationsPerHour ?? DEFAULT_CONFIRMATIONS_PER_HOUR;
  return db.transaction(async (tx) => {
    // One mailbox's signups are decided one at a time, so `+tag` spellings sent at once send one.
    await lockForTransaction(tx, CONFIRMATION_LOCK_CLASS, mailbox);
    const [recent] = await tx
      .select({ id: newsletterConfirmations.id })
      .from(newsletterConfirmations)
      .where(
        and(
          eq(newsletterConfirmations.mailbox, mailbox),
          gt(newsletterConfirmations.sentAt, resendAfter),
        ),
      )
      .limit(1);
    if (recent) return null;
    const sentThisHour = await tx.$count(
      newsletterConfirmations,
      gt(newsletterConfirmations.sentAt, hourAgo),
    );
    if (sentThisHour >= cap) return null;
    // The claim: not confirmed, not unsubscribed, and not mailed within the interval.
    const [row] = await tx
      .update(newsletterSubscribers)
      .set({
        confirmTokenHash: tokenHash(token),
        confirmExpiresAt: new Date(options.now.getTime() + CONFIRM_TOKEN_HOURS * HOUR_MS),
        confirmSentAt: options.now,
      })
      .where(
        and(
          eq(newsletterSubscribers.email, address),
          eq(newsletterSubscribers.status, "pending"),
          or(
            isNull(newsletterSubscribers.confirmSentAt),
            lte(newsletterSubscribers.confirmSentAt, resendAfter),
          ),
        ),
      )
      .returning({ id: newsletterSubscribers.id, publicId: newsletterSubscribers.publicId });
    if (!row) return null;
    const keepSince = new Date(Math.min(resendAfter.getTime(), hourAgo.getTime()));
    await tx.delete(newsletterConfirmations).where(lt(newsletterConfirmations.sentAt, keepSince));
    await tx.insert(newsletterConfirmations).values({ mailbox, sentAt: options.now });
    return { subscriberId: row.id, publicId: row.publicId, email: address, token };
  });
}

/** Subscribers whose confirmation token is `token`, not expired at `now`. */
const unexpiredToken = (token: string, now: Date) =>
  and(
    eq(newsletterSubscribers.confirmTokenHash, tokenHash(token)),
    gt(newsletterSubscribers.confirmExpiresAt, now),
  );

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
    .where(unexpiredToken(token, now));
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
    .where(unexpiredToken(token, now))
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

const macOf = async (db: Database, subject: string) =>
  createHmac("sha256", await siteSecret(db, "newsletter-unsubscribe"))
    .update(`unsubscribe:${subject}`)
    .digest("base64url");

/**
 * The token of a subscriber's unsubscribe links: their random public id (never the row's id, which
 * counts subscribers and names the next one) and a keyed hash of it. It is never stored and never
 * expires, so the link in any mail ever sent keeps working.
 */
export async function unsubscribeToken(db: Database, publicId: string): Promise<string> {
  const hex = publicId.replaceAll("-", "").toLowerCase();
  return `${hex}.${await macOf(db, hex)}`;
}

/**
 * The subscriber an unsubscribe token names, or null when it is not one of ours. Tokens of mails
 * sent before links carried public ids (the row's id, then the hash) are still honoured.
 */
export async function subscriberOfToken(db: Database, token: string): Promise<number | null> {
  const current = /^([0-9a-f]{32})\.([\w-]{43})$/.exec(token);
  if (current?.[1] && current[2]) {
    if (!sameText(current[2], await macOf(db, current[1]))) return null;
    const uuid = current[1].replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    const [row] = await db
      .select({ id: newsletterSubscribers.id })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.publicId, uuid));
    return row?.id ?? null;
  }
  const earlier = /^(\d{1,10})\.([\w-]{43})$/.exec(token);
  if (!earlier?.[1] || !earlier[2]) return null;
  return sameText(earlier[2], await macOf(db, earlier[1])) ? Number(earlier[1]) : null;
}

/** A subscriber unsubscribed: since `at`, or since an earlier unsubscribe; no confirmation due. */
const unsubscribed = (at: SQL) => ({
  status: "unsubscribed",
  unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, ${at})`,
  confirmTokenHash: null,
  confirmExpiresAt: null,
});

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
    .set(unsubscribed(sql`${now.toISOString()}::timestamptz`))
    .where(eq(newsletterSubscribers.id, id))
    .returning({ email: newsletterSubscribers.email });
  if (!row) return { unsubscribed: false };
  await suppress(db, row.email, "unsubscribed");
  return { unsubscribed: true };
}

/**
 * Takes back an unsubscribe, from the page a reader's own mail links to: the token proves the
 * mailbox, so no confirmation mail is needed (and a signup form sends none to an address that left).
 * An address a mail server refused for good stays off the list.
 */
export async function resubscribe(
  db: Database,
  token: string,
  now: Date,
): Promise<{ resubscribed: boolean }> {
  const id = await subscriberOfToken(db, token);
  if (id === null) return { resubscribed: false };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, id));
    if (!row) return { resubscribed: false };
    const [bounced] = await tx
      .select({ email: newsletterSuppressions.email })
      .from(newsletterSuppressions)
      .where(
        and(
          eq(newsletterSuppressions.email, row.email),
          eq(newsletterSuppressions.reason, "bounced"),
        ),
      );
    if (bounced) return { resubscribed: false };
    await tx
      .update(newsletterSubscribers)
      .set({ status: "confirmed", confirmedAt: now, unsubscribedAt: null })
      .where(eq(newsletterSubscribers.id, id));
    await tx.delete(newsletterSuppressions).where(eq(newsletterSuppressions.email, row.email));
    return { resubscribed: true };
  });
}

/** The state of the subscriber a token names, or null when it is not one of ours. */
export async function subscriberStatusOfToken(
  db: Database,
  token: string,
): Promise<SubscriberStatus | null> {
  const id = await subscriberOfToken(db, token);
  if (id === null) return null;
  const [row] = await db
    .select({ status: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.id, id));
  return (row?.status as SubscriberStatus | undefined) ?? null;
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
      .set(unsubscribed(sql`now()`))
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
