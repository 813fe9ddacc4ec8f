import { z } from "zod";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { signUp, type NewsletterMail } from "./signup";

export const EMAIL_MISSING = "Please enter your email address.";
export const EMAIL_INVALID = "Please enter a valid email address, like name@example.com.";
export const NEWSLETTER_UNAVAILABLE =
  "We could not add you to the newsletter just now. Please try again in a few minutes.";

export const newsletterSignup = z.object({
  email: z
    .string({ error: EMAIL_MISSING })
    .trim()
    .min(1, EMAIL_MISSING)
    .max(254, EMAIL_INVALID)
    .pipe(z.email({ error: EMAIL_INVALID })),
});

/** What the newsletter form answers: a new or known address alike is a success. */
export type NewsletterAnswer =
  { status: "subscribed" } | { status: "error"; error: string; email?: string };

/**
 * Validates an address and signs it up (pending until confirmed from the mail it is sent, decision
 * 025); nothing is stored when it is invalid.
 */
export async function subscribe(
  services: { db: Database; mail: NewsletterMail; logger: Logger },
  fields: Record<string, string>,
): Promise<{ ok: true; sending: Promise<void> } | { ok: false; error: string }> {
  const parsed = newsletterSignup.safeParse(fields);
  if (!parsed.success)
    return { ok: false, error: parsed.error.issues[0]?.message ?? EMAIL_INVALID };
  const { sending } = await signUp(services.db, services.mail, parsed.data.email, services.logger);
  return { ok: true, sending };
}
