import { desc, eq, max } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client";
import { feeds, staffAudit } from "../db/schema";
import type { FeedSource } from "../ingest/feeds-config";
import type { IngestSummary } from "../ingest/ingest";
import { lockedIngestPass, type PassOptions } from "../ingest/scheduler";
import type { Logger } from "../logger";
import { sanDiegoDate } from "../../shared/san-diego-time";
import { runNewsletter, type SendRun } from "../newsletter/send";
import type { NewsletterMail } from "../newsletter/signup";
import { recordAudit } from "../staff/audit";
import type { Actor } from "./action";

/**
 * The admins' two buttons that start long work (issue #22, #23): an ingest pass and today's digest.
 * Each runs exactly as the schedule runs it, under the same database lock, so it never runs twice
 * at once across processes. The request waits only until the work is known to have begun (or not),
 * then the page answers; the work goes on in this process and writes its result to the audit log,
 * where the newsroom (of any process) reads it back.
 */

/** What pressing a button came to. */
export type JobStart =
  /** The work has begun in this process. */
  | "started"
  /** Another process (or this one) is doing it now: nothing was started. */
  | "busy"
  /** The digest went to every confirmed reader already. */
  | "sent-already"
  /** There is no story to send. */
  | "no-story"
  /** It could not begin (the database refused): logged. */
  | "failed";

export interface NewsroomOperations {
  /** The configured feeds, for the feeds screen's health column. */
  feedSources: readonly FeedSource[];
  startIngestPass(actor: Actor): Promise<JobStart>;
  /** Today's digest (San Diego date): made and sent once, then sent only to readers who had none. */
  startDigest(actor: Actor): Promise<JobStart>;
  /** Resolves when the work this process started has ended (tests). */
  idle(): Promise<void>;
  /** Stops that work at its next safe point (between feeds, between messages) and waits for it. */
  stop(): Promise<void>;
}

/** The audit actions the operations write. */
export const AUDIT = {
  ingestStarted: "feeds.ingest",
  ingestFinished: "feeds.ingest-finished",
  digestStarted: "newsletter.send",
  digestFinished: "newsletter.sent",
} as const;

export function newsroomOperations(options: {
  database: DatabaseHandle;
  logger: Logger;
  pass: Omit<PassOptions, "database" | "logger">;
  mail: NewsletterMail;
  now?: () => Date;
  /** Told of every pass the newsroom runs (the metrics). */
  onPass?: (summary: IngestSummary) => void;
}): NewsroomOperations {
  const { database, logger } = options;
  const now = options.now ?? (() => new Date());
  const jobs = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  const idle = async () => {
    while (jobs.size > 0) await Promise.allSettled([...jobs]);
  };

  /**
   * Runs `work` in the background and answers once it has begun (`begun` called) or ended without
   * beginning (its answer, mapped by `unbegun`).
   */
  function start<T>(
    name: string,
    work: (begun: () => void) => Promise<T>,
    unbegun: (value: T) => JobStart,
  ): Promise<JobStart> {
    return new Promise<JobStart>((resolve) => {
      const job = work(() => resolve("started")).then(
        (value) => resolve(unbegun(value)),
        (error: unknown) => {
          logger.error({ err: error }, `${name} failed`);
          resolve("failed");
        },
      );
      jobs.add(job);
      void job.finally(() => jobs.delete(job));
    });
  }

  const audit = (actor: Actor, action: string, after: unknown) =>
    recordAudit(database.db, actor, { action, after }).catch((error: unknown) =>
      logger.error({ err: error }, "the newsroom could not write its audit log"),
    );

  return {
    feedSources: options.pass.sources,

    startIngestPass(actor) {
      return start(
        "the ingest pass started from the newsroom",
        async (begun) => {
          // Written while the pass runs, and waited for before the job ends: the "finished" entry
          // comes after it, and idle() or stop() never leaves it half written.
          let started: Promise<void> = Promise.resolve();
          const summary = await lockedIngestPass(
            { ...options.pass, database, logger },
            {
              signal: stopping.signal,
              onLocked: () => {
                started = audit(actor, AUDIT.ingestStarted, { started: now().toISOString() });
                begun();
              },
            },
          ).finally(() => started);
          if (summary) {
            options.onPass?.(summary);
            const { feeds: _reports, pictures: _pictures, ...totals } = summary;
            await audit(actor, AUDIT.ingestFinished, totals);
          }
          return summary;
        },
        (summary) => (summary ? "started" : "busy"),
      );
    },

    startDigest(actor) {
      const key = sanDiegoDate(now());
      return start<SendRun>(
        "the digest started from the newsroom",
        async (begun) => {
          let started: Promise<void> = Promise.resolve();
          const run = await runNewsletter(database, {
            mailer: options.mail.mailer,
            site: options.mail.site,
            keepIssuesDays: options.mail.keepIssuesDays,
            logger,
            key,
            now,
            signal: stopping.signal,
            latecomers: true,
            onSending: () => {
              started = audit(actor, AUDIT.digestStarted, { issue: key });
              begun();
            },
          }).finally(() => started);
          if (run.kind === "sent") await audit(actor, AUDIT.digestFinished, run.summary);
          return run;
        },
        (run) =>
          run.kind === "busy"
            ? "busy"
            : run.kind === "sent"
              ? "started"
              : run.why === "no-story"
                ? "no-story"
                : "sent-already",
      );
    },

    idle,

    async stop() {
      stopping.abort();
      await idle();
    },
  };
}

/** The last time any process read a feed, and the last pass started from the newsroom. */
export async function lastIngest(db: Database): Promise<{
  lastReadAt: Date | null;
  lastNewsroomPass: { at: Date; by: string; totals: unknown } | null;
}> {
  const [read] = await db.select({ at: max(feeds.lastAttemptAt) }).from(feeds);
  const [pass] = await db
    .select()
    .from(staffAudit)
    .where(eq(staffAudit.action, AUDIT.ingestFinished))
    .orderBy(desc(staffAudit.id))
    .limit(1);
  return {
    lastReadAt: read?.at ?? null,
    lastNewsroomPass: pass ? { at: pass.createdAt, by: pass.staffEmail, totals: pass.after } : null,
  };
}
