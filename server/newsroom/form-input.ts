import { data } from "react-router";
import { z } from "zod";

/**
 * How the newsroom reads a posted form (issue #37): through a zod schema, one per action, joined
 * in a discriminated union on `intent` where a page offers several. A schema says which action is
 * asked for and what it carries (text, a stored record's number, one of a few choices); the action
 * itself (stories.ts, corrections.ts, ...) still decides whether the change may be made, with the
 * messages staff see, so a form and a direct call are answered alike.
 */

/** The form's fields, each as `FormData.get` gives it: its first value, text or file. */
export function formValues(form: FormData): Record<string, FormDataEntryValue> {
  // Reversed, as a later entry of the same name replaces an earlier one.
  return Object.fromEntries([...form.entries()].reverse());
}

/** A text field as typed: "" when the form lacks it (or sends a file in its place). */
export const textField = z.string().catch("");

/** A text field of `form` as typed, to send back with an error. */
export const typedText = (form: FormData, name: string): string => textField.parse(form.get(name));

/** The largest number PostgreSQL's `serial` ids reach. */
const MAX_ID = 2_147_483_647;

/** A stored record's number as `Number` reads a field: a whole number from 1. */
export const storedId = z.coerce.number().int().min(1).max(MAX_ID);

/**
 * A record's number (a correction, a rule, a message, an account) in a form, and 0, which no
 * record has, for anything else: the action then answers its own "there is no such …" message,
 * after its other checks as always, and changes nothing.
 */
export const recordId = storedId.catch(0);

export const UNKNOWN_ACTION = "Unknown action.";

/**
 * The form read through `schema`: what it asks for, or the first problem's message. A missing or
 * unknown `intent` is refused outright (400): no page of ours sends one.
 */
export function readAction<S extends z.ZodType>(
  schema: S,
  form: FormData,
): { ok: true; data: z.output<S> } | { ok: false; error: string } {
  const parsed = schema.safeParse(formValues(form));
  if (parsed.success) return { ok: true, data: parsed.data };
  const [issue] = parsed.error.issues;
  if (!issue || issue.path[0] === "intent") throw data(UNKNOWN_ACTION, { status: 400 });
  return { ok: false, error: issue.message };
}

/** The action a form asks for, by a schema in which only the intent can be wrong. */
export function actionOf<S extends z.ZodType>(schema: S, form: FormData): z.output<S> {
  const read = readAction(schema, form);
  if (!read.ok) throw data(UNKNOWN_ACTION, { status: 400 });
  return read.data;
}
