import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import { sanDiegoDate } from "../../shared/san-diego-time";
import { countAudience } from "./send";
import { listSubscriptions, type SubscriberListing } from "./subscriptions";
import { csvFile } from "../lib/csv";

/**
 * What the newsroom's newsletter screen shows admins (issue #22, #23): how many readers are in each
 * state, the list a page at a time, the last issues and how their sending went, and the list as
 * a CSV file.
 */

export interface SubscriberCounts {
  pending: number;
  confirmed: number;
  unsubscribed: number;
  /** Addresses never mailed again, by why. */
  suppressed: { unsubscribed: number; bounced: number };
}

export async function subscriberCounts(db: Database): Promise<SubscriberCounts> {
  const [states, suppressions] = await Promise.all([
    db
      .select({ status: newsletterSubscribers.status, n: sql<number>`count(*)::int` })
      .from(newsletterSubscribers)
      .groupBy(newsletterSubscribers.status),
    db
      .select({ reason: newsletterSuppressions.reason, n: sql<number>`count(*)::int` })
      .from(newsletterSuppressions)
      .groupBy(newsletterSuppressions.reason),
  ]);
  const of = <T extends { n: number }>(rows: T[], pick: (row: T) => boolean) =>
    rows.find(pick)?.n ?? 0;
  return {
    pending: of(states, (r) => r.status === "pending"),
    confirmed: of(states, (r) => r.status === "confirmed"),
    unsubscribed: of(states, (r) => r.status === "unsubscribed"),
    suppressed: {
      unsubscribed: of(suppressions, (r) => r.reason === "unsubscribed"),
      bounced: of(suppressions, (r) => r.reason === "bounced"),
    },
  };
}

const SUBSCRIBERS_PAGE_SIZE = 50;

/** One page of subscribers, newest first (page 1 is the first), and how many there are. */
export async function subscriberPage(
  db: Database,
  page: number,
  size = SUBSCRIBERS_PAGE_SIZE,
): Promise<{ rows: SubscriberListing[]; total: number; page: number; pages: number }> {
  const total = await db.$count(newsletterSubscribers);
  const pages = Math.max(1, Math.ceil(total / size));
  const current = Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  const rows = await listSubscriptions(db, {
    newestFirst: true,
    limit: size,
    offset: (current - 1) * size,
  });
  return {
    rows,
    total,
    page: current,
    pages,
  };
}

export interface IssueReport {
  id: number;
  key: string;
  subject: string;
  createdAt: Date;
  completedAt: Date | null;
  deliveries: Record<"queued" | "sent" | "bounced" | "failed" | "skipped", number>;
}

/** The newest issues with their deliveries counted by state. */
export async function recentIssues(db: Database, limit = 5): Promise<IssueReport[]> {
  const issues = await db
    .select({
      id: newsletterIssues.id,
      key: newsletterIssues.key,
      subject: newsletterIssues.subject,
      createdAt: newsletterIssues.createdAt,
      completedAt: newsletterIssues.completedAt,
    })
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.id))
    .limit(limit);
  if (issues.length === 0) return [];
  const counts = await db
    .select({
      issueId: newsletterDeliveries.issueId,
      status: newsletterDeliveries.status,
      n: sql<number>`count(*)::int`,
    })
    .from(newsletterDeliveries)
    .where(
      inArray(
        newsletterDeliveries.issueId,
        issues.map((i) => i.id),
      ),
    )
    .groupBy(newsletterDeliveries.issueId, newsletterDeliveries.status);
  return issues.map((issue) => {
    const deliveries = { queued: 0, sent: 0, bounced: 0, failed: 0, skipped: 0 };
    for (const c of counts) {
      if (c.issueId === issue.id && Object.hasOwn(deliveries, c.status)) {
        deliveries[c.status as keyof typeof deliveries] = c.n;
      }
    }
    return { ...issue, deliveries };
  });
}

/** Where today's digest stands, for the newsroom's "Send today's digest now" and its confirmation. */
export type TodaysDigest =
  /** Not made yet: sending makes it for `readers` confirmed readers. */
  | { state: "not-made"; readers: number }
  /** Made; `sending` while deliveries are queued. `readers` have had none (they confirmed since). */
  | { state: "sending" | "sent"; readers: number };

/**
 * Today's digest (the issue of today's San Diego date, the key the schedule and the button use)
 * and how many confirmed, unsuppressed readers sending it now would reach: those with no delivery
 * of it. Zero once it is made means every confirmed reader has had it.
 */
export async function todaysDigest(db: Database, now = new Date()): Promise<TodaysDigest> {
  const [issue] = await db
    .select({ id: newsletterIssues.id, completedAt: newsletterIssues.completedAt })
    .from(newsletterIssues)
    .where(eq(newsletterIssues.key, sanDiegoDate(now)));
  if (!issue) return { state: "not-made", readers: await countAudience(db) };
  const readers = await db.$count(
    newsletterSubscribers,
    sql`${newsletterSubscribers.status} = 'confirmed'
        AND NOT EXISTS (SELECT 1 FROM ${newsletterSuppressions}
                         WHERE ${newsletterSuppressions.email} = ${newsletterSubscribers.email})
        AND NOT EXISTS (SELECT 1 FROM ${newsletterDeliveries}
                         WHERE ${newsletterDeliveries.issueId} = ${issue.id}
                           AND ${newsletterDeliveries.subscriberId} = ${newsletterSubscribers.id})`,
  );
  return { state: issue.completedAt ? "sent" : "sending", readers };
}

const iso = (date: Date | null) => (date ? date.toISOString() : "");

/** The subscribers as a CSV file for a spreadsheet (server/lib/csv.ts). */
export function subscribersCsv(subscribers: readonly SubscriberListing[]): string {
  return csvFile([
    ["email", "status", "suppressed", "signed_up", "confirmed", "unsubscribed"],
    ...subscribers.map((s) => [
      s.email,
      s.status,
      s.suppressed ?? "",
      iso(s.createdAt),
      iso(s.confirmedAt),
      iso(s.unsubscribedAt),
    ]),
  ]);
}
