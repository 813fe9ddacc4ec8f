import type { NewsletterConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { repeatEvery, type Repeating } from "../repeat";
import { sanDiegoDate, sanDiegoMinutes } from "../../shared/san-diego-time";
import { runNewsletter, type SendRun } from "./send";
import type { NewsletterMail } from "./signup";

/** How often the web process looks whether a digest is due (or an interrupted one to resume). */
const CHECK_EVERY_MS = 60_000;

/**
 * The issue due now: today's (San Diego date) once its time has come, else none. An unfinished
 * issue is resumed whatever the time (runNewsletter).
 */
function dueIssueKey(sendAt: NonNullable<NewsletterConfig["sendAt"]>, now: Date) {
  return sanDiegoMinutes(now) >= sendAt.hour * 60 + sendAt.minute ? sanDiegoDate(now) : null;
}

/**
 * The daily digest inside the web process: every minute, one run under the newsletter lock, so
 * that of all the processes on one database exactly one sends (or resumes) it.
 */
export function startNewsletterSchedule(options: {
  database: DatabaseHandle;
  mail: NewsletterMail;
  sendAt: NonNullable<NewsletterConfig["sendAt"]>;
  logger: Logger;
  checkEveryMs?: number;
  now?: () => Date;
  onRun?: (run: SendRun) => void;
}): Repeating {
  const now = options.now ?? (() => new Date());
  return repeatEvery(
    async (signal) => {
      const run = await runNewsletter(options.database, {
        mailer: options.mail.mailer,
        site: options.mail.site,
        keepIssuesDays: options.mail.keepIssuesDays,
        logger: options.logger,
        key: dueIssueKey(options.sendAt, now()),
        now,
        signal,
      });
      if (run.kind === "sent") {
        options.logger.info(
          { ...run.summary, resumed: run.resumed, to: options.mail.mailer.destination },
          "newsletter digest sent",
        );
      }
      options.onRun?.(run);
    },
    () => options.checkEveryMs ?? CHECK_EVERY_MS,
    (error) => options.logger.error({ err: error }, "the newsletter digest could not be sent"),
  );
}
