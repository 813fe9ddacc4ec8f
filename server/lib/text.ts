/**
 * Small text and URL helpers shared by parse, normalise and sanitise. Pure functions, no I/O.
 */
import { decodeHTMLStrict as decodeEntities } from "entities";

/**
 * decodeEntities decodes character references: numeric (`&#38;`, `&#x26;`, `&#X26;`), the XML five and
 * every HTML named entity, but only in their strict form ending in `;`. A stray `&` (as in `?a=1&b=2`)
 * stays as written, and nothing a document declares in a DTD is ever expanded. escapeHtml escapes text for
 * an HTML text node, escapeAttr for a double-quoted HTML attribute value.
 */
export { decodeEntities };
export { escapeText as escapeHtml, escapeAttribute as escapeAttr } from "entities";

/** `decode(text)`; what html.ts decodes with. */
export function decodeWith(text: string, decode: (text: string) => string): string {
  return text.includes("&") ? decode(text) : text;
}

// Controls (C0 except tab and line ends, DEL, C1), bidi overrides and isolates (they make text display as
// something it is not), and zero-width space, word joiner and BOM. ZWJ/ZWNJ are kept: emoji sequences and
// Persian, Urdu or Indic text need them.
const UNWANTED_CHARS =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/** Removes control, bidi-override and invisible characters, collapses whitespace and trims. */
export function cleanText(text: string): string {
  return text.replace(UNWANTED_CHARS, "").replace(/\s+/g, " ").trim();
}

/**
 * Cuts text to at most `max` characters at a word boundary and adds "..." when anything was cut.
 * A single word longer than `max` is cut inside the word.
 */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  if (!/\s/.test(text.charAt(max))) {
    const lastSpace = cut.search(/\s\S*$/);
    if (lastSpace > 0) cut = cut.slice(0, lastSpace);
  }
  // "said." or "said," followed by "..." reads badly; the ellipsis replaces the punctuation.
  return `${cut.replace(/[\s.,;:\u2013\u2014-]+$/, "")}...`;
}

// Everything a browser strips or ignores inside a URL, and every character that can disguise one: all of
// UNWANTED_CHARS and the C0 whitespace, no-break and soft hyphen, zero-width and direction marks, line and
// paragraph separators, invisible operators.
const URL_JUNK =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function withoutUrlJunk(text: string): string {
  return text.replace(URL_JUNK, "");
}

/**
 * The longest address kept (as the sitemaps protocol has it): a longer one is treated as no address. A
 * feed can name an address of any length, and one of a few thousand characters no longer fits an index
 * row (PostgreSQL's btree holds about 2,700 bytes), so one item could stop what stores it.
 */
export const MAX_URL_LENGTH = 2048;

/**
 * Resolves `raw` against `base` and returns the absolute URL when it is http(s) and at most
 * MAX_URL_LENGTH characters long; otherwise null.
 * Protocol-relative URLs (`//host/x`) become https. Entities are decoded first, and control, zero-width and
 * bidi characters are removed anywhere (stricter than browsers), so `jav&#x09;ascript:` or
 * `java\u0000script:` cannot pass.
 */
export function safeHttpUrl(raw: string | null | undefined, base?: string | null): string | null {
  return capped(httpUrl(raw, base)?.href ?? null);
}

/** `removeTrackingParams(safeHttpUrl(raw, base))`, parsing the URL once. */
export function safeHttpUrlWithoutTracking(raw: string | null, base: string): string | null {
  const url = httpUrl(raw, base);
  return url === null ? null : capped(withoutTracking(url));
}

function capped(href: string | null): string | null {
  return href !== null && href.length <= MAX_URL_LENGTH ? href : null;
}

/** What safeHttpUrl returns the href of. */
function httpUrl(raw: string | null | undefined, base?: string | null): URL | null {
  if (!raw) return null;
  // Inner spaces stay (the URL parser encodes them); only the ends are trimmed.
  const value = withoutUrlJunk(decodeEntities(raw)).trim();
  if (value === "") return null;
  const withScheme = value.startsWith("//") ? `https:${value}` : value;
  const url = URL.parse(withScheme, base ? readBase(base) : undefined);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return null;
  if (url.hostname === "") return null;
  return url;
}

function readBase(base: string): string | undefined {
  const clean = withoutUrlJunk(base).trim();
  const absolute = clean.startsWith("//") ? `https:${clean}` : clean;
  return URL.parse(absolute)?.href;
}

/** Whether a string is an absolute http(s) URL as written (no base needed). */
export function isHttpUrl(value: string | null | undefined): value is string {
  return typeof value === "string" && /^\s*https?:\/\//i.test(value) && safeHttpUrl(value) !== null;
}

const TRACKING_PARAM = /^(utm_.*|fbclid|gclid|mc_.*)$/i;

/** Removes tracking parameters (`utm_*`, `fbclid`, `gclid`, `mc_*`), leaving the rest of the query as written. */
export function removeTrackingParams(href: string): string {
  return withoutTracking(new URL(href));
}

function withoutTracking(url: URL): string {
  if (url.search === "") return url.href;
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => {
      if (pair === "") return false;
      const name = pair.split("=", 1)[0] ?? "";
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed escape is kept as written; it is not a tracking parameter we know.
      }
      return !TRACKING_PARAM.test(decoded);
    });
  url.search = kept.length > 0 ? `?${kept.join("&")}` : "";
  return url.href;
}

/** Latin letters that do not decompose into a base letter plus accents (as `unaccent` maps them). */
export const TRANSLITERATION: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ł: "l",
  þ: "th",
};

/** A URL-safe slug: lowercase ASCII letters, digits and single hyphens, at most `max` characters. */
export function slugify(text: string, max = 60): string {
  // ASCII needs no transliteration or decomposition.
  // (Nor do the usual quotes, dashes, ellipsis and no-break space: whatever NFKD makes of them is no
  // letter or digit, and they become hyphens either way.)
  const plain = /^[\p{ASCII}\u00a0\u2013\u2014\u2018\u201c\u201d\u2026]*$/u.test(text)
    ? text
    : text
        .replace(/[ßæœøđłþ]/gi, (c) => TRANSLITERATION[c.toLowerCase()] ?? "")
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "");
  const slug = plain
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : slug.slice(0, max)).replace(/-+$/, "");
}
