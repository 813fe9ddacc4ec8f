import { asc, eq, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client";
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import { renderDigest } from "./digest";
import type { MailSite } from "./messages";

/**
 * A digest's issues as stored (decision 026): made once with one queued delivery per confirmed,
 * unsuppressed reader, reopened for latecomers, pruned when old. Sending them is send.ts's.
 */

export type IssueRow = typeof newsletterIssues.$inferSelect;

/** An issue not finished yet (the oldest), to resume before anything else. */
export async function unfinishedIssue(db: Database): Promise<IssueRow | undefined> {
  const [issue] = await db
    .select()
    .from(newsletterIssues)
    .where(isNull(newsletterIssues.completedAt))
    .orderBy(asc(newsletterIssues.id))
    .limit(1);
  return issue;
}

/** Whether the issue of this key exists (finished or not). */
export async function issueExists(db: Database, key: string): Promise<boolean> {
  const rows = await db
    .select({ id: newsletterIssues.id })
    .from(newsletterIssues)
    .where(eq(newsletterIssues.key, key));
  return rows.length > 0;
}

/** Queues a delivery of the issue for every confirmed, unsuppressed reader. */
const queueDeliveries = (issueId: number) => sql`
  INSERT INTO ${newsletterDeliveries} (issue_id, subscriber_id)
  SELECT ${issueId}, s.id FROM ${newsletterSubscribers} s
   WHERE s.status = 'confirmed'
     AND NOT EXISTS (SELECT 1 FROM ${newsletterSuppressions} x WHERE x.email = s.email)`;

/**
 * Renders the digest and stores it as the issue `key` with a queued delivery for every confirmed,
 * unsuppressed reader, in one transaction. Null when there is no story, or the key exists.
 */
export async function createIssue(
  db: Database,
  site: MailSite,
  key: string,
  now: Date,
): Promise<IssueRow | null> {
  const digest = await renderDigest(db, site, now);
  if (!digest) return null;
  return db.transaction(async (tx) => {
    const [issue] = await tx
      .insert(newsletterIssues)
      .values({
        key,
        subject: digest.subject,
        html: digest.html,
        text: digest.text,
        createdAt: now,
      })
      .onConflictDoNothing({ target: newsletterIssues.key })
      .returning();
    if (!issue) return null;
    await tx.execute(queueDeliveries(issue.id));
    return issue;
  });
}

/**
 * Gives the issue `key`, already made, to confirmed and unsuppressed readers who have no delivery
 * of it yet (they confirmed after it was made), and reopens it for them. The number added; the
 * (issue, reader) key keeps anyone from being given it twice.
 */
export async function addLatecomers(db: Database, key: string): Promise<IssueRow | null> {
  return db.transaction(async (tx) => {
    const [issue] = await tx.select().from(newsletterIssues).where(eq(newsletterIssues.key, key));
    if (!issue) return null;
    const added = rowsOf<{ subscriber_id: number }>(
      await tx.execute(
        sql`${queueDeliveries(issue.id)} ON CONFLICT DO NOTHING RETURNING subscriber_id`,
      ),
    );
    if (added.length === 0) return null;
    const [reopened] = await tx
      .update(newsletterIssues)
      .set({ completedAt: null })
      .where(eq(newsletterIssues.id, issue.id))
      .returning();
    return reopened ?? null;
  });
}

/**
 * Removes the issues finished before `before`, with their deliveries (about 60 bytes a reader an
 * issue): what the newsroom reports is the last few issues, and an unfinished issue, whatever its
 * age, is kept for the run that resumes it. Their keys are past days, never due again.
 */
export async function pruneIssues(db: Database, before: Date): Promise<number> {
  const removed = await db
    .delete(newsletterIssues)
    .where(lt(newsletterIssues.completedAt, before))
    .returning({ id: newsletterIssues.id });
  return removed.length;
}
