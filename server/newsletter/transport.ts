import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { NewsletterConfig } from "../config";

/** A message ready to go: nodemailer's options, with the Message-ID always set by us. */
export type OutgoingMail = Mail.Options & { messageId: string; to: string };

/**
 * Where newsletter mail goes: an SMTP server (SMTP_URL), or with none set `.eml` files in the
 * outbox folder, so that everything works offline and the demo can show its mail.
 */
export interface Mailer {
  /** Hands one message over; rejects with nodemailer's error (its `responseCode`) when refused. */
  send(mail: OutgoingMail): Promise<void>;
  /** Says where mail goes, for logs and the CLI (never the SMTP password). */
  readonly destination: string;
  close(): void;
}

/** Messages handed to one SMTP server at once (a pool of connections, each reused). */
const SMTP_CONNECTIONS = 4;

export function createMailer(config: Pick<NewsletterConfig, "smtpUrl" | "outboxDir">): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl) : outboxMailer(config.outboxDir);
}

function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: SMTP_CONNECTIONS,
    maxMessages: 1000,
    // A server that stops answering must not hold a send for ever.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const where = new URL(url);
  return {
    destination: `SMTP server ${where.protocol}//${where.host}`,
    async send(mail) {
      await transport.sendMail(mail);
    },
    close: () => transport.close(),
  };
}

/** A Message-ID as a file name: the same message written twice is one file. */
function outboxFileName(messageId: string): string {
  return `${messageId.replace(/^<|>$/g, "").replace(/[^\w.@-]/g, "_")}.eml`;
}

function outboxMailer(dir: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  let made: Promise<unknown> | undefined;
  return {
    destination: `the outbox folder ${dir}`,
    async send(mail) {
      made ??= fs.mkdir(dir, { recursive: true });
      await made;
      const info = await transport.sendMail(mail);
      const file = path.join(dir, outboxFileName(mail.messageId));
      // Written whole, then renamed: a reader of the folder never sees half a message.
      const partial = `${file}.${process.pid}.part`;
      await fs.writeFile(partial, info.message as Buffer);
      await fs.rename(partial, file);
    },
    close: () => transport.close(),
  };
}

/**
 * Whether the mail server refused the recipient for good: a 5xx answer to RCPT TO (the address does
 * not exist, the mailbox is disabled). A refused sender, message or login is the site's problem,
 * never the reader's, and is not a bounce.
 */
export function isBounce(error: unknown): boolean {
  const e = error as { code?: unknown; command?: unknown; responseCode?: unknown } | null;
  return (
    e?.code === "EENVELOPE" &&
    e.command === "RCPT TO" &&
    typeof e.responseCode === "number" &&
    e.responseCode >= 500 &&
    e.responseCode < 600
  );
}
