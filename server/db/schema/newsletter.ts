// The newsletter (decision 026): readers, confirmations, suppressions, issues, deliveries.
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/**
 * Newsletter readers (decision 026). An address signs up `pending`, is `confirmed` from the link in
 * its confirmation mail and `unsubscribed` from any mail's link; only confirmed ones get the digest.
 */
export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: serial("id").primaryKey(),
    /** Normalised: trimmed and lower-cased. */
    email: text("email").notNull().unique(),
    /** Names the subscriber in unsubscribe links: random, so a link tells nothing of the list. */
    publicId: uuid("public_id").notNull().defaultRandom().unique(),
    /** `pending`, `confirmed` or `unsubscribed`. */
    status: text("status").notNull().default("pending"),
    /** sha256 of the confirmation link's random token; null once used (or never sent). */
    confirmTokenHash: text("confirm_token_hash").unique(),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    /** When the last confirmation mail was sent: another waits NEWSLETTER_RESEND_MINUTES. */
    confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("newsletter_subscribers_status_idx").on(t.status, t.id)],
);

/**
 * Confirmation mails sent, by mailbox (the address with any `+tag` taken out): the resend interval
 * and the hourly cap count here, so `+tag` spellings of one address share one allowance. Rows older
 * than both are removed as new ones are added.
 */
export const newsletterConfirmations = pgTable(
  "newsletter_confirmations",
  {
    id: serial("id").primaryKey(),
    mailbox: text("mailbox").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("newsletter_confirmations_mailbox_idx").on(t.mailbox, t.sentAt),
    index("newsletter_confirmations_sent_idx").on(t.sentAt),
  ],
);

/**
 * Addresses the newsletter never mails again unprompted: unsubscribed ones and those whose mail
 * server refused them for good (`bounced`). Signup and sending both read it.
 */
export const newsletterSuppressions = pgTable("newsletter_suppressions", {
  /** Normalised, as in newsletter_subscribers. */
  email: text("email").primaryKey(),
  /** `unsubscribed` or `bounced`. */
  reason: text("reason").notNull(),
  /** The mail server's answer, for a bounce. */
  detail: text("detail"),
  ...timestamps,
});

/**
 * One digest: rendered once (its HTML and text, with a placeholder for each reader's unsubscribe
 * address), so a send resumed after a crash sends exactly what the first run did.
 */
export const newsletterIssues = pgTable("newsletter_issues", {
  id: serial("id").primaryKey(),
  /** The San Diego date of a scheduled issue (`2026-12-01`), or `manual-<time>` for a sent-now one. */
  key: text("key").notNull().unique(),
  subject: text("subject").notNull(),
  html: text("html").notNull(),
  text: text("text").notNull(),
  /** Set when no delivery is left to try. */
  completedAt: timestamp("completed_at", { withTimezone: true }),
  ...timestamps,
});

/**
 * One row per issue and reader, written when the issue is made: the send works through the queued
 * ones, so a crash or restart resumes without skipping anyone or sending anyone an issue twice.
 */
export const newsletterDeliveries = pgTable(
  "newsletter_deliveries",
  {
    issueId: integer("issue_id")
      .notNull()
      .references(() => newsletterIssues.id, { onDelete: "cascade" }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    /** `queued`, `sent`, `bounced`, `failed` (gave up after retries) or `skipped` (left meanwhile). */
    status: text("status").notNull().default("queued"),
    /** Times a send was begun; above 0 while queued means a run stopped while handing it over. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.subscriberId] }),
    index("newsletter_deliveries_queued_idx")
      .on(t.issueId, t.subscriberId)
      .where(sql`${t.status} = 'queued'`),
  ],
);
