import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";

/**
 * Where the e2e server on `port` writes newsletter mail (scripts/e2e-server.js): the main site's
 * by default; the newsroom's site is on E2E_PORT + 2.
 */
export function e2eOutbox(port = Number(process.env.E2E_PORT ?? 3100)): string {
  return path.join(os.tmpdir(), `news-e2e-outbox-${port}`);
}

/** Every mail in an outbox folder to `email`, as it is now. */
export async function mailsTo(email: string, outbox = e2eOutbox()): Promise<ParsedMail[]> {
  const files = fs.existsSync(outbox)
    ? fs.readdirSync(outbox).filter((f) => f.endsWith(".eml"))
    : [];
  const mails = await Promise.all(
    files.map((f) => simpleParser(fs.readFileSync(path.join(outbox, f)))),
  );
  return mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email);
}

/** The one mail to `email` that `which` picks, once it is in the outbox. */
export async function mailTo(
  email: string,
  which: (mail: ParsedMail) => boolean = () => true,
  outbox = e2eOutbox(),
): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(email, outbox)).find(which);
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  if (!found) throw new Error(`no mail to ${email}`);
  return found;
}

/** The path and query of the first link of a mail's text part that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const link = [...(mail.text ?? "").matchAll(/https?:\/\/\S+/g)]
    .map((m) => new URL(m[0]))
    .find((url) => url.pathname.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in the mail`);
  return `${link.pathname}${link.search}`;
}
