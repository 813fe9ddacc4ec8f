/** Outside values made into BlogPost fields, the same way for both sources. */
import { cleanText } from "../lib/text";

// A UTF-16 surrogate without its pair: no character at all. A UTF-8 page shows it as U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A title, description, author or keyword list as pages show it, made as feed text is made
 * (server/lib/text.ts `cleanText`): control, bidi-override and invisible characters removed and
 * whitespace collapsed. A lone surrogate becomes U+FFFD, as the server's UTF-8 page writes it, so the
 * page hydrates to the same text; NUL goes, which no PostgreSQL text (the search copy) can hold.
 */
export function plainText(value: string | null | undefined): string {
  return value ? cleanText(value.replace(LONE_SURROGATE, "\uFFFD")) : "";
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * An ISO 8601 timestamp for a date as written ("2025-06-10", "2025-06-10T14:30:00Z",
 * "2025-06-10 14:30:00+00"), or null when it is no real date.
 */
export function publicationDate(value: string): string | null {
  const text = value.trim();
  if (DATE_ONLY.test(text)) {
    // A date without a time is a calendar day. Noon UTC is that same day in San Diego (and from
    // UTC-11 to UTC+11), so the page shows the day the author wrote, not the day before.
    const date = new Date(`${text}T12:00:00.000Z`);
    // Date rolls 2025-02-30 over to March 2; the round trip rejects it.
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text)
      ? date.toISOString()
      : null;
  }
  // Only ISO 8601 forms: Date's readings of anything else differ between engines.
  if (!DATE_TIME.test(text)) return null;
  // PostgreSQL writes "2025-06-10 14:30:00+00"; Date reads only "2025-06-10T14:30:00+00:00".
  const time = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * An image address a page may show: an absolute http(s) URL (normalised) or a path on this site;
 * null for anything else (other schemes, protocol-relative or malformed addresses).
 */
export function imageAddress(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (text.startsWith("/")) {
    if (text.startsWith("//") || /[\\\s<>"']/.test(text)) return null;
    return text;
  }
  const url = URL.parse(text);
  return url && (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== ""
    ? url.href
    : null;
}
