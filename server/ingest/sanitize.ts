/**
 * Every HTML fragment from a feed passes through here before it is stored: an allowlist of tags and
 * attributes, http(s) links and images only, resolved to absolute URLs.
 *
 * The fragment is read once with htmlparser2 (the tokenizer sanitize-html uses, so markup is understood
 * the same way) and both its sanitised HTML and its plain text come out of that one reading. The rules are
 * sanitize-html's, as this module configured it before: sanitize.test.ts and the hostile-input tables hold
 * them, and the reference tests in sanitize-compat.test.ts compare the two readings on real feeds.
 */
import { Parser } from "htmlparser2";
import { readHtml, textOf, type HtmlHandler } from "./html";
import { cleanText, decodeEntities, safeHttpUrl } from "./text";

const ALLOWED_TAGS = new Set([
  "p",
  "br",
  "a",
  "ul",
  "ol",
  "li",
  "em",
  "strong",
  "b",
  "i",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "figure",
  "figcaption",
  "img",
  "span",
  "code",
  "pre",
]);

// Disallowed tags whose text is dropped with them, not kept as loose text.
const NON_TEXT_TAGS = new Set([
  "script",
  "style",
  "textarea",
  "option",
  "select",
  "noscript",
  "noembed",
  "noframes",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "math",
  "template",
  "title",
  "head",
  "xmp",
  "plaintext",
]);

// Allowed tags written as `<tag ... />`, with no closing tag.
const SELF_CLOSING = new Set(["img", "br"]);

const LINK_REL = "noopener noreferrer";

// Block-level boundaries become spaces in plain text, so "<p>One</p><p>Two</p>" reads "One Two".
const BLOCK_BOUNDARY =
  /<(\/?)(p|div|br|hr|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|figure|figcaption|section|article|header|footer|pre|dd|dt)\b/gi;

// The same names, tested on a tag name as written.
const BLOCK_NAME =
  /^(?:p|div|br|hr|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|figure|figcaption|section|article|header|footer|pre|dd|dt)\b/i;

const BLOCK_INITIALS = new Set(Array.from("pdbhluotsaf", (c) => c.charCodeAt(0)));

function safeLink(href: string | undefined, baseUrl: string): string | null {
  if (!href) return null;
  const trimmed = decodeEntities(href).trim();
  if (/^mailto:/i.test(trimmed)) {
    // A mailto: link is an address and nothing else: no markup, quotes or controls.
    return /^mailto:[^\s<>"'`\\]+$/i.test(trimmed) ? trimmed : null;
  }
  return safeHttpUrl(trimmed, baseUrl);
}

function dimension(value: string | undefined): string | null {
  return value !== undefined && /^\d{1,4}$/.test(value.trim()) ? value.trim() : null;
}

/**
 * Text as HTML text: `&`, `<` and `>` escaped, and NUL removed: browsers drop it from HTML, and no
 * PostgreSQL text can hold it (one NUL would keep a whole feed from being stored).
 */
function escapeText(text: string): string {
  const clean = text.includes("\0") ? text.replaceAll("\0", "") : text;
  if (!/[&<>]/.test(clean)) return clean;
  return clean.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text as a double-quoted attribute value. */
function escapeValue(text: string): string {
  const escaped = escapeText(text);
  return escaped.includes('"') ? escaped.replace(/"/g, "&quot;") : escaped;
}

/** An allowed `<a>`: a safe link opened in a new tab, or (when the link is unsafe) a plain span. */
function openLink(attribs: Record<string, string>, baseUrl: string): string {
  const href = safeLink(attribs.href, baseUrl);
  if (href === null) return "<span>";
  return `<a href="${escapeValue(href)}" target="_blank" rel="${LINK_REL}">`;
}

/** An allowed `<img>`, or "" for an image without a usable source. */
function image(attribs: Record<string, string>, baseUrl: string): string {
  const src = safeHttpUrl(attribs.src, baseUrl);
  if (src === null) return "";
  let out = `<img src="${escapeValue(src)}"`;
  if (attribs.alt !== undefined) out += ` alt="${escapeValue(cleanText(attribs.alt))}"`;
  const width = dimension(attribs.width);
  const height = dimension(attribs.height);
  if (width !== null) out += ` width="${width}"`;
  if (height !== null) out += ` height="${height}"`;
  return `${out} loading="lazy" />`;
}

interface Frame {
  /** The tag as read (lower case). */
  tag: string;
  /** The closing tag to write, or null when nothing is written for this element. */
  close: string | null;
}

/**
 * One reading of a fragment. Text inside the tags in NON_TEXT_TAGS is dropped; every other piece of text
 * is kept, escaped in the HTML and as is in the text. Elements outside the allowlist lose their tags.
 */
class Reading implements HtmlHandler {
  out = "";
  text = "";
  /** Tags as written where BLOCK_BOUNDARY matches (see `spacedAlike`). */
  boundaries = 0;
  private readonly stack: Frame[] = [];
  /** Depth inside an element whose text is dropped; 0 outside. */
  private skipDepth = 0;

  /**
   * @param html also build the sanitised HTML (else only the text)
   * @param blockSpaces put a space in the text at every block boundary (else the caller did, in `source`)
   */
  constructor(
    private readonly source: string,
    private readonly html: boolean,
    private readonly blockSpaces: boolean,
    private readonly baseUrl: string,
  ) {}

  /** A tag as written in the source, before htmlparser2 opens or closes anything for it. */
  literalTag(start: number, end: number, closing: boolean): void {
    const source = this.source;
    const written = closing
      ? source.charCodeAt(start - 1) === 0x2f && source.charCodeAt(start - 2) === 0x3c
      : source.charCodeAt(start - 1) === 0x3c;
    // (Every block name starts with one of a few letters: only those names are tested.)
    if (!written || !BLOCK_INITIALS.has(source.charCodeAt(start) | 0x20)) return;
    if (!BLOCK_NAME.test(source.slice(start, end))) return;
    this.boundaries++;
    if (this.blockSpaces && this.skipDepth === 0) this.text += " ";
  }

  wantsAttributes(name: string): boolean {
    return this.html && this.skipDepth === 0 && (name === "a" || name === "img");
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    if (this.skipDepth > 0) {
      this.skipDepth++;
      return;
    }
    const tag = name === "h1" ? "h2" : name;
    if (!ALLOWED_TAGS.has(tag)) {
      this.stack.push({ tag: name, close: null });
      if (NON_TEXT_TAGS.has(tag)) this.skipDepth = 1;
      return;
    }
    if (!this.html) {
      this.stack.push({ tag: name, close: null });
    } else if (tag === "a") {
      const open = openLink(attribs, this.baseUrl);
      this.out += open;
      this.stack.push({ tag: name, close: open === "<span>" ? "</span>" : "</a>" });
    } else if (tag === "img") {
      this.out += image(attribs, this.baseUrl);
      this.stack.push({ tag: name, close: null });
    } else {
      this.out += SELF_CLOSING.has(tag) ? `<${tag} />` : `<${tag}>`;
      this.stack.push({ tag: name, close: SELF_CLOSING.has(tag) ? null : `</${tag}>` });
    }
  }

  ontext(data: string): void {
    if (this.skipDepth > 0) return;
    this.text += data;
    if (this.html) this.out += escapeText(data);
  }

  onclosetag(name: string): void {
    if (this.skipDepth > 0) {
      this.skipDepth--;
      if (this.skipDepth > 0) return;
    }
    const frame = this.stack.pop();
    if (frame === undefined) return;
    if (frame.tag !== name) {
      this.stack.push(frame);
      return;
    }
    if (frame.close !== null) this.out += frame.close;
  }
}

/** htmlparser2's parser, told about every tag as written (its callbacks only see tags as interpreted). */
class FragmentParser extends Parser {
  constructor(private readonly reading: Reading) {
    super(reading, { decodeEntities: true });
  }

  override onopentagname(start: number, endIndex: number): void {
    this.reading.literalTag(start, endIndex, false);
    super.onopentagname(start, endIndex);
  }

  override onclosetag(start: number, endIndex: number): void {
    this.reading.literalTag(start, endIndex, true);
    super.onclosetag(start, endIndex);
  }
}

function read(source: string, html: boolean, blockSpaces: boolean, baseUrl: string): Reading {
  const fast = new Reading(source, html, blockSpaces, baseUrl);
  if (readHtml(source, fast)) return fast;
  // The fast reader gave up (the fragment ends inside a tag or comment): htmlparser2 reads it all.
  const reading = new Reading(source, html, blockSpaces, baseUrl);
  // A new parser every time: htmlparser2's reset() can leave the tokenizer inside a <script> it saw.
  new FragmentParser(reading).end(source);
  return reading;
}

/** The text of a fragment, read as the regular expression BLOCK_BOUNDARY spaces it out. */
function spacedText(html: string): string {
  return cleanText(read(html.replace(BLOCK_BOUNDARY, " <$1$2"), false, false, "").text);
}

/**
 * Whether the text of a reading is the text of the source spaced out by BLOCK_BOUNDARY, as stripTags has
 * always read it. It is when every match of BLOCK_BOUNDARY is a tag as read: a space before a tag, read
 * as text, changes nothing but the text. A match anywhere else (inside a tag name, an unquoted attribute
 * value, the raw text of an element whose text is kept) may change how the rest reads.
 */
function spacedAlike(reading: Reading, source: string): boolean {
  BLOCK_BOUNDARY.lastIndex = 0;
  let matches = 0;
  while (BLOCK_BOUNDARY.exec(source) !== null) matches++;
  return matches === reading.boundaries;
}

export interface SanitizedFragment {
  /** The sanitised HTML: `sanitizeHtml(fragment, baseUrl)`. */
  html: string;
  /** The plain text: `stripTags(fragment)`. */
  text: string;
  /** Whether the sanitised HTML has any text: `stripTags(html) !== ""`. */
  hasText: boolean;
}

/** `sanitizeHtml` and `stripTags` of one fragment, from one reading of it. */
export function sanitizeFragment(fragment: string, baseUrl: string): SanitizedFragment {
  if (!fragment.includes("<")) {
    // Plain text: nothing to remove, only entities to read (as htmlparser2 reads them in text).
    const decoded = textOf(fragment);
    const text = cleanText(decoded);
    return { html: escapeText(decoded).trim(), text, hasText: text !== "" };
  }
  const result = read(fragment, true, true, baseUrl);
  const html = result.out.trim();
  if (!spacedAlike(result, fragment)) {
    return { html, text: spacedText(fragment), hasText: stripTags(html) !== "" };
  }
  const text = cleanText(result.text);
  return { html, text, hasText: text !== "" };
}

/** Sanitises an HTML fragment to the site's allowlist; relative links and images resolve against `baseUrl`. */
export function sanitizeHtml(html: string, baseUrl: string): string {
  return sanitizeFragment(html, baseUrl).html;
}

/** The text of an HTML fragment: markup removed (script and style contents dropped), entities decoded. */
export function stripTags(html: string): string {
  if (!/[<&]/.test(html)) return cleanText(html);
  if (!html.includes("<")) return cleanText(textOf(html));
  const result = read(html, false, true, "");
  return spacedAlike(result, html) ? cleanText(result.text) : spacedText(html);
}
