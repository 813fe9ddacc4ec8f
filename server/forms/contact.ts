import { z } from "zod";
import { CONTACT_CATEGORIES, type ContactCategory } from "../../content/contact";
import type { Database } from "../db/client";
import { saveContactMessage } from "./repository";
import { EMAIL_INVALID } from "./newsletter";

export const CONTACT_FIELDS = ["name", "email", "category", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const CONTACT_UNAVAILABLE =
  "Your message could not be sent just now. Please try again in a few minutes, or write to us by e-mail.";

const CATEGORY_VALUES = CONTACT_CATEGORIES.map((c) => c.value) as [
  ContactCategory,
  ...ContactCategory[],
];

// Nobody types control characters into the form, and PostgreSQL refuses NUL in text: a name keeps
// none (each run becomes a space), a message keeps only tabs and line breaks.
const NAME_CONTROLS = /\p{Cc}+/gu;
const MESSAGE_CONTROLS = /(?![\t\n\r])\p{Cc}/gu;

const message = z.object({
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
  category: z.enum(CATEGORY_VALUES, { error: "Please choose what your message is about." }),
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
export function contactCategory(value: string | null): ContactCategory | null {
  return CATEGORY_VALUES.find((c) => c === value) ?? null;
}

/** Validates and stores a message; with any invalid field nothing is stored. */
export async function sendContactMessage(
  db: Database,
  fields: Record<string, string>,
): Promise<{ ok: true } | { ok: false; errors: ContactErrors }> {
  const parsed = message.safeParse(fields);
  if (!parsed.success) {
    const errors: ContactErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as ContactField;
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  await saveContactMessage(db, parsed.data);
  return { ok: true };
}
