// The newsroom's staff (decision 023): accounts, sessions, failed sign-ins, the audit.
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/**
 * The publication's staff, who sign in to the newsroom (server/staff, decision 023). Created from
 * the command line only (`news staff add`); readers never have accounts.
 */
export const staff = pgTable("staff", {
  id: serial("id").primaryKey(),
  /** Normalised: trimmed and lower-cased. */
  email: text("email").notNull().unique(),
  /** `editor` acts on content; `admin` also manages feeds and sees subscribers. */
  role: text("role").notNull(),
  /** argon2id, in its PHC string form (parameters and salt included). */
  passwordHash: text("password_hash").notNull(),
  ...timestamps,
});

/** Signed-in sessions: the sha256 of the cookie's random token, never the token itself. */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** The absolute end, whatever the use. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("staff_sessions_staff_idx").on(t.staffId)],
);

/**
 * Failed sign-ins, one row each, by a keyed hash of the e-mail given and of the address it came
 * from: counted across every process and machine on the database to lock out guessing.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: serial("id").primaryKey(),
    /** `account:<hmac>` or `address:<hmac>`. */
    key: text("key").notNull(),
    ...timestamps,
  },
  (t) => [index("sign_in_failures_key_idx").on(t.key, t.createdAt)],
);

/** Every staff action: who, what, on what, the state before and after. Only ever added to. */
export const staffAudit = pgTable(
  "staff_audit",
  {
    id: serial("id").primaryKey(),
    /** Kept when the account is removed; the e-mail says who it was. */
    staffId: integer("staff_id"),
    staffEmail: text("staff_email").notNull(),
    action: text("action").notNull(),
    subject: text("subject"),
    before: jsonb("before"),
    after: jsonb("after"),
    ...timestamps,
  },
  (t) => [
    index("staff_audit_created_idx").on(sql`${t.createdAt} DESC`),
    // A story's last change by staff (the newsroom's "View on site" link) is read by subject.
    index("staff_audit_subject_idx").on(t.subject, t.createdAt),
  ],
);
