import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client";
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import type { Logger } from "../logger";
import { UNSUBSCRIBE_PLACEHOLDER } from "./digest";
import {
  addLatecomers,
  createIssue,
  issueExists,
  pruneIssues,
  unfinishedIssue,
  type IssueRow,
} from "./issues";
import { messageId, unsubscribeHeaders, unsubscribeUrl, type MailSite } from "./messages";
import { suppress, unsubscribeToken } from "./subscriptions";
import { isBounce, type Mailer, type OutgoingMail } from "./transport";

/**
 * Sending a digest (decision 026). An issue is rendered once and stored with one delivery row per
 * confirmed reader (issues.ts); the send works through the queued rows, recording each as it goes,
 * so a run that stops (a crash, a restart, a lost lock) is resumed by the next without skipping anyone. A
 * message handed over just before a crash, not yet recorded, is handed over again with the same
 * Message-ID, which receiving systems use to drop the copy.
 */

/** Held by whoever sends, across every process on one PostgreSQL database (ingest has 7_241_002). */
export const NEWSLETTER_LOCK_ID = 7_241_003;

/** Deliveries read and claimed at a time. */
const BATCH = 200;
/** Messages handed to the mailer at once. */
export const SEND_CONCURRENCY = 4;
/** Failures in a row after which a run stops: the mail server is down, the next run tries again. */
const FAILURES_IN_A_ROW = 20;
const DAY_MS = 24 * 3_600_000;
/** Deliveries still queued this long after their issue was made are given up. */
const GIVE_UP_AFTER_MS = DAY_MS;
/** Days a finished issue is kept when the caller does not say (NEWSLETTER_KEEP_DAYS). */
const KEEP_ISSUES_DAYS = 90;

interface SendSummary {
  issueId: number;
  sent: number;
  bounced: number;
  failed: number;
  /** Readers who left or bounced after the issue was made. */
  skipped: number;
  /** Begun by an interrupted run and sent in this one (each with its first Message-ID). */
  retried: number;
  /** Still queued when the run stopped (a failing mail server, a stop). */
  remaining: number;
  completed: boolean;
}

/** The Message-ID of an issue's mail to one reader: the same in every run. */
const digestMessageId = (site: MailSite, issueId: number, subscriberId: number) =>
  messageId(site, `issue-${issueId}.${subscriberId}`);

/** Readers a digest made now would go to: confirmed and not suppressed. */
export async function countAudience(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .leftJoin(newsletterSuppressions, eq(newsletterSuppressions.email, newsletterSubscribers.email))
    .where(
      and(eq(newsletterSubscribers.status, "confirmed"), isNull(newsletterSuppressions.email)),
    );
  return row?.n ?? 0;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** The issue as one reader gets it: their own unsubscribe address in the body and headers. */
function digestMail(
  site: MailSite,
  issue: Pick<IssueRow, "id" | "subject" | "html" | "text">,
  reader: { id: number; email: string },
  token: string,
): OutgoingMail {
  const url = unsubscribeUrl(site, token);
  return {
    from: site.from,
    to: reader.email,
    subject: issue.subject,
    messageId: digestMessageId(site, issue.id, reader.id),
    html: issue.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, escapeAttribute(url)),
    text: issue.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, url),
    headers: unsubscribeHeaders(site, token),
  };
}

export interface SendOptions {
  db: Database;
  mailer: Mailer;
  site: MailSite;
  logger?: Logger;
  now?: () => Date;
  /** Stops the run between messages (a shutdown, a lost lock). */
  signal?: AbortSignal;
  concurrency?: number;
}

type Outcome = "sent" | "bounced" | "failed" | "queued";

/** Works through the issue's queued deliveries once, in subscriber order. */
async function sendIssue(options: SendOptions, issue: IssueRow): Promise<SendSummary> {
  const { db, mailer, site } = options;
  const now = options.now ?? (() => new Date());
  const summary: SendSummary = {
    issueId: issue.id,
    sent: 0,
    bounced: 0,
    failed: 0,
    skipped: 0,
    retried: 0,
    remaining: 0,
    completed: false,
  };
  /** The issue's deliveries to these readers. */
  const deliveriesTo = (readers: { id: number }[]) =>
    and(
      eq(newsletterDeliveries.issueId, issue.id),
      inArray(
        newsletterDeliveries.subscriberId,
        readers.map((r) => r.id),
      ),
    );
  const queued = and(
    eq(newsletterDeliveries.issueId, issue.id),
    eq(newsletterDeliveries.status, "queued"),
  );
  const record = async (reader: { id: number }, outcome: Outcome, error?: string) => {
    await db
      .update(newsletterDeliveries)
      .set({
        status: outcome,
        lastError: error ?? null,
        sentAt: outcome === "sent" ? now() : null,
      })
      .where(deliveriesTo([reader]));
  };

  let after = 0;
  let failuresInARow = 0;
  let stopped = false;
  while (!stopped && !options.signal?.aborted) {
    const batch = await db
      .select({
        id: newsletterDeliveries.subscriberId,
        attempts: newsletterDeliveries.attempts,
        email: newsletterSubscribers.email,
        publicId: newsletterSubscribers.publicId,
        status: newsletterSubscribers.status,
        suppressed: newsletterSuppressions.reason,
      })
      .from(newsletterDeliveries)
      .innerJoin(
        newsletterSubscribers,
        eq(newsletterSubscribers.id, newsletterDeliveries.subscriberId),
      )
      .leftJoin(
        newsletterSuppressions,
        eq(newsletterSuppressions.email, newsletterSubscribers.email),
      )
      .where(and(queued, gt(newsletterDeliveries.subscriberId, after)))
      .orderBy(asc(newsletterDeliveries.subscriberId))
      .limit(BATCH);
    const last = batch.at(-1);
    if (!last) break;
    after = last.id;

    // Readers who left (or bounced) since the issue was made are not sent it.
    const gone = batch.filter((r) => r.status !== "confirmed" || r.suppressed !== null);
    if (gone.length > 0) {
      await db.update(newsletterDeliveries).set({ status: "skipped" }).where(deliveriesTo(gone));
      summary.skipped += gone.length;
    }
    const readers = batch.filter((r) => r.status === "confirmed" && r.suppressed === null);
    if (readers.length === 0) continue;
    await db
      .update(newsletterDeliveries)
      .set({ attempts: sql`${newsletterDeliveries.attempts} + 1` })
      .where(deliveriesTo(readers));

    let next = 0;
    const worker = async () => {
      while (!stopped && !options.signal?.aborted) {
        const reader = readers[next++];
        if (!reader) return;
        if (reader.attempts > 0) summary.retried++;
        const mail = digestMail(site, issue, reader, await unsubscribeToken(db, reader.publicId));
        try {
          await mailer.send(mail);
          await record(reader, "sent");
          summary.sent++;
          failuresInARow = 0;
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          if (isBounce(error)) {
            await suppress(db, reader.email, "bounced", detail);
            await record(reader, "bounced", detail);
            summary.bounced++;
            continue;
          }
          const refused = (error as { responseCode?: unknown }).responseCode;
          if (typeof refused === "number" && refused >= 500) {
            await record(reader, "failed", detail);
            summary.failed++;
            continue;
          }
          // Left queued for the next run.
          await record(reader, "queued", detail);
          options.logger?.warn({ err: error, issue: issue.id }, "a digest could not be sent");
          if (++failuresInARow >= FAILURES_IN_A_ROW) stopped = true;
        }
      }
    };
    await Promise.all(
      Array.from({ length: options.concurrency ?? SEND_CONCURRENCY }, () => worker()),
    );
  }

  // What a failing mail server left a day after the issue was made is given up.
  if (now().getTime() - issue.createdAt.getTime() > GIVE_UP_AFTER_MS) {
    const given = await db
      .update(newsletterDeliveries)
      .set({ status: "failed" })
      .where(queued)
      .returning({ id: newsletterDeliveries.subscriberId });
    summary.failed += given.length;
  }
  summary.remaining = await db.$count(newsletterDeliveries, queued);
  if (summary.remaining === 0) {
    await db
      .update(newsletterIssues)
      .set({ completedAt: now() })
      .where(and(eq(newsletterIssues.id, issue.id), isNull(newsletterIssues.completedAt)));
    summary.completed = true;
  }
  return summary;
}

export type SendRun =
  | { kind: "busy" }
  | { kind: "nothing"; why: "not-due" | "sent" | "no-story"; reason: string }
  | { kind: "sent"; summary: SendSummary; resumed: boolean };

/**
 * One sending run under the newsletter lock (one process at a time across all of them): resumes
 * an unfinished issue if there is one, else makes the issue `key` (when `key` is given and new)
 * and sends it.
 */
export async function runNewsletter(
  database: DatabaseHandle,
  options: Omit<SendOptions, "db" | "signal"> & {
    key: string | null;
    signal?: AbortSignal;
    /**
     * When the issue `key` exists: send it to the confirmed readers who have not had it (the
     * newsroom's "Send today's digest now"), rather than nothing.
     */
    latecomers?: boolean;
    /** Called when this run begins to send an issue (the lock held, the issue made or reopened). */
    onSending?: () => void;
    /** Finished issues older than this many days are removed first (default KEEP_ISSUES_DAYS). */
    keepIssuesDays?: number;
  },
): Promise<SendRun> {
  const now = options.now ?? (() => new Date());
  const outcome = await database.withLock(NEWSLETTER_LOCK_ID, { wait: false }, async (lost) => {
    const db = database.db;
    const signal = options.signal ? AbortSignal.any([options.signal, lost]) : lost;
    const keepDays = options.keepIssuesDays ?? KEEP_ISSUES_DAYS;
    const removed = await pruneIssues(db, new Date(now().getTime() - keepDays * DAY_MS));
    if (removed > 0) {
      options.logger?.info({ removed, keepDays }, "old newsletter issues removed");
    }
    const send = async (issue: IssueRow, resumed: boolean) => {
      options.onSending?.();
      const summary = await sendIssue({ ...options, db, signal }, issue);
      return { kind: "sent", summary, resumed } as const;
    };
    const unfinished = await unfinishedIssue(db);
    if (unfinished) return send(unfinished, true);
    if (options.key === null)
      return { kind: "nothing", why: "not-due", reason: "no issue is due" } as const;
    if (await issueExists(db, options.key)) {
      const reopened = options.latecomers ? await addLatecomers(db, options.key) : null;
      if (reopened) return send(reopened, false);
      return {
        kind: "nothing",
        why: "sent",
        reason: `the issue ${options.key} was sent`,
      } as const;
    }
    const issue = await createIssue(db, options.site, options.key, now());
    if (!issue)
      return { kind: "nothing", why: "no-story", reason: "there is no story to send" } as const;
    return send(issue, false);
  });
  return outcome.acquired ? outcome.value : { kind: "busy" };
}
