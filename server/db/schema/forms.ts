// Readers' forms: rate limits, poll votes, contact messages; and the site's own secrets.
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/**
 * Form submissions per form and address (a keyed hash, never the address) in the last window,
 * counted here when several web processes or machines share one PostgreSQL database.
 */
export const formRateLimits = pgTable(
  "form_rate_limits",
  {
    key: text("key").primaryKey(),
    /** The times of the submissions counted in the current window, oldest first. */
    hits: timestamp("hits", { withTimezone: true }).array().notNull(),
    /** Whether the last submission was let through. */
    allowed: boolean("allowed").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("form_rate_limits_updated_idx").on(t.updatedAt)],
);

export const pollVotes = pgTable(
  "poll_votes",
  {
    id: serial("id").primaryKey(),
    pollId: text("poll_id").notNull(),
    option: text("option").notNull(),
    /** A random per-browser token from a cookie; never an IP address. */
    voterId: text("voter_id").notNull(),
    /**
     * A keyed hash of the voter's network and the day (server/forms/poll.ts): votes per network per
     * poll per day are counted against a ceiling. Cleared once the day is over; never the address.
     */
    addressKey: text("address_key"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("poll_votes_one_per_voter").on(t.pollId, t.voterId),
    index("poll_votes_address_and_day_idx").on(t.pollId, t.addressKey),
    index("poll_votes_poll_idx").on(t.pollId, t.option),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    category: text("category"),
    message: text("message").notNull(),
    /** Why the message looks automated (server/forms/contact.ts); null for a reader's message. */
    spamReason: text("spam_reason"),
    /** When staff marked it handled in the newsroom's inbox, and who; null while it is open. */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by"),
    ...timestamps,
  },
  (t) => [index("contact_messages_created_idx").on(sql`${t.createdAt} DESC`)],
);

/** Random secrets the site makes for itself on first use (server/db/secrets.ts). */
export const siteSecrets = pgTable("site_secrets", {
  name: text("name").primaryKey(),
  /** Base64 of 32 random bytes. */
  value: text("value").notNull(),
  ...timestamps,
});
