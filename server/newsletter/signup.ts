import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { confirmationMail, type MailSite } from "./messages";
import { requestSubscription, unsubscribeToken } from "./subscriptions";
import { createMailer, type Mailer } from "./transport";

/** The newsletter's mail as the web process holds it: where mail goes and how it is signed. */
export interface NewsletterMail {
  mailer: Mailer;
  site: MailSite;
  resendMinutes: number;
  /** Days a finished issue and its deliveries are kept before a sending run removes them. */
  keepIssuesDays: number;
  /** Confirmation mails the site sends in an hour at most (DEFAULT_CONFIRMATIONS_PER_HOUR when absent). */
  confirmationsPerHour?: number;
}

export function newsletterMailFor(config: Config, siteName: string): NewsletterMail {
  return {
    mailer: createMailer(config.newsletter),
    site: { siteName, siteUrl: config.siteUrl, from: config.newsletter.from },
    resendMinutes: config.newsletter.resendMinutes,
    keepIssuesDays: config.newsletter.keepIssuesDays,
    confirmationsPerHour: config.newsletter.confirmationsPerHour,
  };
}

/**
 * A signup from the form: records the address as pending and, when one is due, sends the
 * confirmation mail. The send is not waited for, so an address already on the list (no mail)
 * answers as fast as a new one; `sending` settles when it is done, for tests and logs.
 */
export async function signUp(
  db: Database,
  mail: NewsletterMail,
  email: string,
  logger: Logger,
  now = new Date(),
): Promise<{ sending: Promise<void> }> {
  const due = await requestSubscription(db, email, {
    now,
    resendMinutes: mail.resendMinutes,
    confirmationsPerHour: mail.confirmationsPerHour,
  });
  if (!due) return { sending: Promise.resolve() };
  const sending = (async () => {
    const message = confirmationMail(mail.site, due, await unsubscribeToken(db, due.publicId));
    await mail.mailer.send(message);
  })().catch((error: unknown) => {
    // The reader can sign up again after NEWSLETTER_RESEND_MINUTES for another try.
    logger.error({ err: error }, "a newsletter confirmation could not be sent");
  });
  return { sending };
}
