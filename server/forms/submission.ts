import { redirect } from "react-router";

/**
 * Forms post the same fields with or without JavaScript. With it, a field added after hydration
 * asks for the answer as data (the page stays); without it the answer is a redirect (POST, then GET)
 * to a page that shows the message.
 */
export const INLINE_FIELD = "_inline";

export function wantsInlineAnswer(form: FormData): boolean {
  return form.get(INLINE_FIELD) === "1";
}

/** A same-site path to go back to, never another origin (`//host`, `/\host`, `http:`). */
export function safeReturnPath(value: FormDataEntryValue | null, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  try {
    const url = new URL(value, "http://site.invalid");
    return url.origin === "http://site.invalid" ? `${url.pathname}${url.search}` : fallback;
  } catch {
    return fallback;
  }
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
