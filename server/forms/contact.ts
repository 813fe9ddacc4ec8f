import { z } from "zod";
import type { Database } from "../db/client";
import { formTokenDoubt, linkCount, MOST_LINKS } from "./form-token";
import { saveContactMessage } from "./repository";
import { EMAIL_INVALID } from "../newsletter/signup-form";

export const CONTACT_FIELDS = ["name", "email", "category", "message"] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_UNAVAILABLE =
  "Your message could not be sent just now. Please try again in a few minutes, or write to us by e-mail.";

// Nobody types control characters into the form, and PostgreSQL refuses NUL in text: a name keeps
// none (each run becomes a space), a message keeps only tabs and line breaks.
const NAME_CONTROLS = /\p{Cc}+/gu;
const MESSAGE_CONTROLS = /(?![\t\n\r])\p{Cc}/gu;

/** A message whose category is one of `categories` (content/contact.yaml). */
const message = (categories: readonly string[]) =>
  z.object({
    name: z
      .string({ error: "Please enter your name." })
      .transform((value) => value.replace(NAME_CONTROLS, " "))
      .pipe(
        z
          .string()
          .trim()
          .min(1, "Please enter your name.")
          .max(100, "Please keep your name under 100 characters."),
      ),
    email: z
      .string({ error: EMAIL_INVALID })
      .trim()
      .max(254, EMAIL_INVALID)
      .pipe(z.email({ error: EMAIL_INVALID })),
    category: z.enum(categories as [string, ...string[]], {
      error: "Please choose what your message is about.",
    }),
    message: z
      .string({ error: "Please write your message." })
      .transform((value) => value.replace(MESSAGE_CONTROLS, ""))
      .pipe(
        z
          .string()
          .trim()
          .min(10, "Please write a message of at least 10 characters.")
          .max(5000, "Please keep your message under 5,000 characters."),
      ),
  });

export type ContactErrors = Partial<Record<ContactField, string>>;

/** The category from `?category=`, when it is one we offer. */
export function contactCategory(
  categories: readonly string[],
  value: string | null,
): string | null {
  return categories.find((c) => c === value) ?? null;
}

/**
 * Why a message looks automated, or null: a post without a sound form token, sent within seconds
 * of the form being shown or a day later, or with more links than a reader writes. Such messages
 * are kept, marked, for the newsroom to look through apart from readers' ones: a check that misses
 * a person loses nothing.
 */
export function contactSpamReason(
  secret: Buffer,
  token: string | undefined,
  message: string,
  now = Date.now(),
): string | null {
  const links = linkCount(message);
  return formTokenDoubt(secret, token, now) ?? (links > MOST_LINKS ? `${links} links` : null);
}

/**
 * Validates and stores a message, marked as suspected spam with `spamReason`; with any invalid
 * field nothing is stored.
 */
export async function sendContactMessage(
  db: Database,
  categories: readonly string[],
  fields: Record<string, string>,
  spamReason: string | null = null,
): Promise<{ ok: true } | { ok: false; errors: ContactErrors }> {
  const parsed = message(categories).safeParse(fields);
  if (!parsed.success) {
    const errors: ContactErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ContactField;
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  await saveContactMessage(db, { ...parsed.data, spamReason });
  return { ok: true };
}
