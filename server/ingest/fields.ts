/**
 * Readers of feed fields that RSS and Atom share: trimmed text, HTML as RawItem holds it, the xml:base in
 * effect, the author to show.
 */
import { escapeHtml } from "../lib/text";
import type { RawItem } from "./types";
import { attr, childNamed, hasElements, innerMarkup, textContent, type XmlElement } from "./xml";

// Atom elements: in the Atom namespace, or (Atom 0.3 without a declaration) in none.
export const ATOM = ["atom", ""] as const;

export function text(el: XmlElement | null): string | null {
  if (el === null) return null;
  const value = textContent(el).trim();
  return value === "" ? null : value;
}

export function firstText(candidates: (XmlElement | null)[]): string | null {
  return candidates.map(text).find((value) => value !== null) ?? null;
}

/** An RSS field that may hold HTML: escaped or CDATA markup as text, or (invalid but seen) naked markup. */
export function rssHtml(el: XmlElement | null): string | null {
  if (el === null) return null;
  const value = (hasElements(el) ? innerMarkup(el) : textContent(el)).trim();
  return value === "" ? null : value;
}

/** Plain text as HTML, so every RawItem string field can be read as HTML. */
export function plainAsHtml(el: XmlElement | null): string | null {
  const value = text(el);
  return value === null ? null : escapeHtml(value);
}

/** The media:`local` (title, description) of the first of `groups` (media:group) that has one. */
export function inMediaGroups(groups: XmlElement[], local: string): XmlElement | null {
  return groups.map((g) => childNamed(g, "media", local)).find((el) => el !== null) ?? null;
}

function resolveBase(base: string | null, parent: string | null): string | null {
  if (base === null || base.trim() === "") return parent;
  if (parent === null) return base.trim();
  return URL.parse(base.trim(), parent)?.href ?? base.trim();
}

export function xmlBase(el: XmlElement, parent: string | null): string | null {
  return resolveBase(attr(el, "xml:base"), parent);
}

function isEmail(value: string): boolean {
  return /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/.test(value.trim());
}

/** The first author that is more than a bare email address, else the first author. */
export function pickAuthor(candidates: (string | null)[]): string | null {
  const present = candidates.filter((c): c is string => c !== null && c.trim() !== "");
  return present.find((c) => !isEmail(c)) ?? present[0] ?? null;
}

export function joined(values: (string | null)[]): string | null {
  const present = values.filter((v): v is string => v !== null);
  return present.length > 0 ? present.join(", ") : null;
}

/** An element with nothing in it (`<item />`, or one cut off by truncation) is not an item. */
export function hasContent(item: RawItem): boolean {
  const fields = [
    item.guid,
    item.title,
    item.link,
    item.summary,
    item.content,
    item.date,
    item.author,
  ];
  return item.images.length > 0 || fields.some((v) => v !== null);
}
