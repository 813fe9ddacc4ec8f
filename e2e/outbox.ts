import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";

/** Where the e2e server writes newsletter mail (scripts/e2e-server.js). */
export function e2eOutbox(): string {
  return path.join(os.tmpdir(), `news-e2e-outbox-${process.env.E2E_PORT ?? "3100"}`);
}

/** The one mail to `email` that `which` picks, once it is in the outbox. */
export async function mailTo(
  email: string,
  which: (mail: ParsedMail) => boolean = () => true,
): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const dir = e2eOutbox();
        const files = fs.existsSync(dir)
          ? fs.readdirSync(dir).filter((f) => f.endsWith(".eml"))
          : [];
        const mails = await Promise.all(
          files.map((f) => simpleParser(fs.readFileSync(path.join(dir, f)))),
        );
        found = mails.find((m) => m.to && !Array.isArray(m.to) && m.to.text === email && which(m));
        return found !== undefined;
      },
      { timeout: 10_000 },
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
