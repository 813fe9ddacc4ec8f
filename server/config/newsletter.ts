import path from "node:path";
import { z } from "zod";
import { nonEmpty, wholeNumber } from "./readers";

/** The newsletter's settings (server/newsletter, decision 026), a section of config.ts's schema. */
export const newsletterVariables = {
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: "an smtp:// or smtps:// URL, such as smtp://user:pass@mail.example.net:587",
    })
    .optional(),
  NEWSLETTER_FROM: z
    .string()
    .trim()
    .regex(/^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
      error: 'an e-mail address, or a name and one: "San Diego Local <news@example.com>"',
    })
    .optional(),
  NEWSLETTER_SEND_AT: z
    .string()
    .regex(/^(?:off|(?:[01]\d|2[0-3]):[0-5]\d)$/, {
      error: "a San Diego time as HH:MM (24-hour), or off",
    })
    .default("06:00"),
  NEWSLETTER_RESEND_MINUTES: wholeNumber(1, 1440, "minutes").default(10),
  NEWSLETTER_KEEP_DAYS: wholeNumber(7, 3650, "days").default(90),
  NEWSLETTER_CONFIRMATIONS_PER_HOUR: wholeNumber(1, 100_000).default(200),
  MAIL_OUTBOX_DIR: nonEmpty.optional(),
};

type NewsletterVariables = z.output<z.ZodObject<typeof newsletterVariables>>;

export interface NewsletterConfig {
  /** SMTP server to send through (SMTP_URL, may hold a password: never logged); null: the outbox. */
  smtpUrl: string | null;
  /** Where mail goes as `.eml` files when no SMTP server is set. */
  outboxDir: string;
  /** The From of every newsletter mail. */
  from: string;
  /** When the daily digest goes out, San Diego time; null: no schedule (send it from the CLI). */
  sendAt: { hour: number; minute: number } | null;
  /** The least time between two confirmation mails to one pending address. */
  resendMinutes: number;
  /** Days a finished issue and its deliveries are kept (NEWSLETTER_KEEP_DAYS). */
  keepIssuesDays: number;
  /** Confirmation mails the whole site sends in an hour at most (NEWSLETTER_CONFIRMATIONS_PER_HOUR). */
  confirmationsPerHour: number;
}

/** The newsletter's settings; From is newsletter@ the site's host unless NEWSLETTER_FROM says. */
export function newsletterConfig(
  v: NewsletterVariables & { SITE_URL: string; DATA_DIR: string },
  cwd: string,
): NewsletterConfig {
  return {
    smtpUrl: v.SMTP_URL ?? null,
    outboxDir: path.resolve(cwd, v.MAIL_OUTBOX_DIR ?? path.join(v.DATA_DIR, "outbox")),
    from: v.NEWSLETTER_FROM ?? `newsletter@${new URL(v.SITE_URL).hostname}`,
    sendAt: sendTime(v.NEWSLETTER_SEND_AT),
    resendMinutes: v.NEWSLETTER_RESEND_MINUTES,
    keepIssuesDays: v.NEWSLETTER_KEEP_DAYS,
    confirmationsPerHour: v.NEWSLETTER_CONFIRMATIONS_PER_HOUR,
  };
}

function sendTime(value: string): NewsletterConfig["sendAt"] {
  if (value === "off") return null;
  const [hour = 0, minute = 0] = value.split(":").map(Number);
  return { hour, minute };
}
