/**
 * RawItem to NormalizedArticle: text fields made plain, HTML sanitised, URLs absolute and http(s) only,
 * dates parsed, and an id that is the same for the same item on every run.
 */
import { createHash } from "node:crypto";
import type { CategoryKey } from "../../shared/categories";
import { parseFeedDate } from "./feed-date";
import { sanitizeFragment, stripTags, type SanitizedFragment } from "./sanitize";
import {
  escapeAttr,
  escapeHtml,
  isHttpUrl,
  safeHttpUrl,
  safeHttpUrlWithoutTracking,
  slugify,
  truncateAtWord,
} from "../lib/text";
import type { NormalizedArticle, RawItem } from "./types";

const EXCERPT_LENGTH = 200;
const UNTITLED_LENGTH = 80;
const DEFAULT_AUTHOR = "Staff Writer";

export interface NormalizeContext {
  feedUrl: string;
  category: CategoryKey;
  /** What relative URLs resolve against when the item carries no xml:base of its own. */
  baseUrl: string;
}

/** The display name from an author field: "x@y (Name)", "Name (x@y)", "Name <x@y>" all give "Name". */
export function authorName(raw: string | null): string {
  const text = raw === null ? "" : stripTags(raw.replace(/<([^<>\s@]+@[^<>\s@]+)>/g, "($1)"));
  const plain = text.replace(/^mailto:/i, "").trim();
  const emailThenName = /^\S+@\S+\s*\((.+)\)$/.exec(plain);
  if (emailThenName?.[1]) return emailThenName[1].trim();
  const nameThenEmail = /^(.+?)\s*\(\s*(?:mailto:)?\S+@\S+\s*\)$/.exec(plain);
  if (nameThenEmail?.[1]) return nameThenEmail[1].trim();
  return plain === "" ? DEFAULT_AUTHOR : plain;
}

/** An absolute http(s) link without tracking parameters, or null. */
export const cleanLink = safeHttpUrlWithoutTracking;

const IMG_TAG = /<img\b[^>]*>/gi;
const imgAttr = (name: string) =>
  new RegExp(String.raw`\s${name}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))`, "i");
const IMG_WIDTH = imgAttr("width");
const IMG_HEIGHT = imgAttr("height");
const IMG_SRC = imgAttr("src");

function imgAttribute(tag: string, pattern: RegExp): string | null {
  const m = pattern.exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? null) : null;
}

function imgSources(html: string | null): string[] {
  if (html === null || !html.includes("<")) return [];
  const sources: string[] = [];
  for (const tag of html.match(IMG_TAG) ?? []) {
    // A 1x1 image is a tracking pixel, not a picture; FeedBurner's "flare" images are share buttons.
    if (imgAttribute(tag, IMG_WIDTH) === "1" || imgAttribute(tag, IMG_HEIGHT) === "1") continue;
    const src = imgAttribute(tag, IMG_SRC);
    if (src !== null && !/\/\/feeds\.feedburner\.com\/~/i.test(src)) sources.push(src);
  }
  return sources;
}

function firstSafe(candidates: string[], base: string): string | null {
  for (const candidate of candidates) {
    const url = safeHttpUrl(candidate, base);
    if (url !== null) return url;
  }
  return null;
}

function firstImage(item: RawItem, base: string): string | null {
  return (
    firstSafe(item.images, base) ??
    firstSafe(imgSources(item.content), base) ??
    firstSafe(imgSources(item.summary), base)
  );
}

function articleId(feedUrl: string, key: string, title: string): string {
  const hash = createHash("sha256").update(`${feedUrl}\n${key}`).digest("hex").slice(0, 16);
  const slug = slugify(title, 60);
  return slug === "" ? hash : `${slug}-${hash}`;
}

function readMore(link: string): string {
  return `<p><a href="${escapeAttr(link)}" target="_blank" rel="noopener noreferrer">Read full article</a></p>`;
}

const BLOCK_TAG = /<(p|ul|ol|li|h[2-6]|blockquote|figure|pre)\b/i;

/** Plain text (sanitised, so already escaped) becomes paragraphs at its blank lines. */
function asParagraphs(html: string): string {
  if (BLOCK_TAG.test(html)) return html;
  return html
    .split(/\n\s*\n|(?:<br \/>\s*){2,}/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => `<p>${part}</p>`)
    .join("");
}

// An HTML parser ignores a DOCTYPE inside a fragment, closed or not; htmlparser2 keeps an unclosed one as
// text, so a description of only "<!DOCTYPE" became the excerpt "DOCTYPE".
const DOCTYPE = /<!doctype\b[^>]*>?/gi;

/** A field's HTML without DOCTYPEs; null when nothing else is in it, as for a missing field. */
function htmlOf(field: string | null): string | null {
  if (field === null || !/<!doctype/i.test(field)) return field;
  const html = field.replace(DOCTYPE, "");
  return html.trim() === "" ? null : html;
}

/** A summary or content fragment, read (once) for as much as is needed of it. */
class Body {
  private readonly fragment: string | null;
  private full: SanitizedFragment | null = null;
  private plain: string | null = null;

  constructor(
    field: string | null,
    private readonly base: string,
  ) {
    this.fragment = htmlOf(field);
  }

  /** `sanitizeFragment`, or null for a missing fragment. */
  sanitized(): SanitizedFragment | null {
    if (this.fragment === null) return null;
    this.full ??= sanitizeFragment(this.fragment, this.base);
    return this.full;
  }

  /** `stripTags`, or "" for a missing fragment. */
  text(): string {
    if (this.fragment === null) return "";
    if (this.full !== null) return this.full.text;
    this.plain ??= stripTags(this.fragment);
    return this.plain;
  }
}

function itemBase(item: RawItem, baseUrl: string): string {
  return safeHttpUrl(item.base, baseUrl) ?? baseUrl;
}

/**
 * Turns a parsed item into an article, or null when it has no usable link (not even a guid that is an
 * http(s) URL): an article must point to its source.
 */
export function normalizeItem(item: RawItem, context: NormalizeContext): NormalizedArticle | null {
  const base = itemBase(item, context.baseUrl);
  const link =
    cleanLink(item.link, base) ?? (isHttpUrl(item.guid) ? cleanLink(item.guid, base) : null);
  if (link === null) return null;

  const summary = new Body(item.summary, base);
  const content = item.content === item.summary ? summary : new Body(item.content, base);
  // The longer fragment is usually the richer one: read it whole now, the other for its text only.
  if ((item.content?.length ?? -1) >= (item.summary?.length ?? -1)) content.sanitized();
  else summary.sanitized();
  const summaryText = summary.text();
  const contentText = content.text();
  const bodyText = summaryText !== "" ? summaryText : contentText;
  const excerpt = truncateAtWord(bodyText, EXCERPT_LENGTH);

  const titleHtml = htmlOf(item.title);
  const rawTitle = titleHtml === null ? "" : stripTags(titleHtml);
  const title =
    rawTitle !== ""
      ? rawTitle
      : bodyText !== ""
        ? truncateAtWord(bodyText, UNTITLED_LENGTH)
        : "Untitled";

  const richer = (contentText.length >= summaryText.length ? content : summary).sanitized();
  const body = richer === null ? "" : richer.html;
  const hasBody = (richer !== null && richer.hasText) || /<img\s/i.test(body);
  const lead = hasBody ? asParagraphs(body) : excerpt === "" ? "" : `<p>${escapeHtml(excerpt)}</p>`;

  // NUL is no character of an identifier, and no PostgreSQL text can hold it.
  const guid = item.guid?.replaceAll("\0", "").trim() || null;
  return {
    id: articleId(context.feedUrl, guid ?? link, title),
    guid,
    title,
    excerpt,
    content: lead + readMore(link),
    image: firstImage(item, base),
    category: context.category,
    date: item.date === null ? null : parseFeedDate(item.date),
    author: authorName(item.author),
    link,
  };
}
