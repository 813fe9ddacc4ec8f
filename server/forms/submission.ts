import { data, redirect } from "react-router";

/**
 * Forms post the same fields with or without JavaScript. With it, a field added after hydration
 * asks for the answer as data (the page stays); without it the answer is a redirect (POST, then GET)
 * to a page that shows the message.
 */
const INLINE_FIELD = "_inline";

export function wantsInlineAnswer(form: FormData): boolean {
  return form.get(INLINE_FIELD) === "1";
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The posted form. A body that is not a form (JSON, plain text, none) is answered 415 and a form
 * that cannot be read (broken multipart) 400, rather than failing the action with a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type =
    (request.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.includes(type)) {
    throw data("Please send this form from the site's own page.", { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Please go back and try again.", { status: 400 });
  }
}

/** A same-site path to go back to, never another origin (`//host`, `/\host`, `http:`). */
export function safeReturnPath(value: FormDataEntryValue | null, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  const url = URL.parse(value, "http://site.invalid");
  return url?.origin === "http://site.invalid" ? `${url.pathname}${url.search}` : fallback;
}

/** 303 to `path` with `param=value` set (other parameters kept), landing on `hash`. */
export function redirectWithMessage(path: string, param: string, value: string, hash: string) {
  const url = new URL(path, "http://site.invalid");
  url.searchParams.set(param, value);
  return redirect(`${url.pathname}${url.search}#${hash}`, 303);
}

/** Plain text fields of a form; files and repeated fields are ignored. */
export function textFields(form: FormData, names: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return fields;
}
