/**
 * Feed bytes to RawItems. Safely: the encoding is detected, DTDs are removed (and refused when they declare
 * entities), and nothing but numeric, XML and HTML entities is ever decoded. Leniently: a damaged feed
 * yields the items that can be read.
 *
 * The title, summary and content of a RawItem are HTML: RSS fields as feeds write them
 * (escaped, CDATA or naked markup), Atom constructs of type text escaped, xhtml serialised, base64 decoded.
 */
import { XMLValidator } from "fast-xml-parser";
import { decodeFeedBytes } from "./encoding";
import { stripTags } from "./sanitize";
import { decodeEntities, escapeAttr, escapeHtml } from "./text";
import type { ParsedFeed, RawItem } from "./types";
import { readXml, type XmlElement } from "./xml";

/** The document cannot be read as a feed. The message is one line, fit for a log or the CLI. */
export class FeedParseError extends Error {
  override name = "FeedParseError";
}

// ---------------------------------------------------------------------------------------------------------
// Prologue: what comes before the root element

const ROOT_START = /<(\?xml|rss[\s>]|feed[\s>]|rdf:RDF[\s>]|RDF[\s>]|channel[\s>])/;

/** End index (exclusive) of the DOCTYPE starting at `start`, honouring quotes, comments and `[...]`. */
function doctypeEnd(text: string, start: number): number {
  let inSubset = false;
  let quote: string | null = null;
  for (let i = start + 2; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (inSubset && text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end === -1) return -1;
      i = end + 2;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "[") {
      inSubset = true;
    } else if (c === "]") {
      inSubset = false;
    } else if (c === ">" && !inSubset) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * Checks what the document is and removes its DOCTYPE. Refuses a DTD that declares entities (entity
 * expansion "billion laughs", external entities reading local files): those are never expanded.
 */
function preparePrologue(input: string): string {
  let text = input.replace(/^\uFEFF/, "");
  const firstMark = text.search(/\S/);
  if (firstMark === -1) throw new FeedParseError("Not a feed: the document is empty");
  if (text[firstMark] === "{") throw new FeedParseError("Not a feed: the document is JSON");
  if (text[firstMark] !== "<") {
    // Stray output before the feed (a PHP warning, a blank line from a template) is cut off.
    const root = ROOT_START.exec(text.slice(0, 4096));
    if (root === null) {
      throw new FeedParseError(
        /<html[\s>]/i.test(text.slice(0, 4096))
          ? "Not a feed: the document is HTML"
          : "Not a feed: the document is not XML",
      );
    }
    text = text.slice(root.index);
  } else {
    text = text.slice(firstMark);
  }

  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    if (text.startsWith("<?", i)) {
      const end = text.indexOf("?>", i + 2);
      if (end === -1) break;
      i = end + 2;
    } else if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      if (end === -1) break;
      i = end + 3;
    } else if (/^<!doctype/i.test(text.slice(i, i + 9))) {
      const end = doctypeEnd(text, i);
      if (end === -1) throw new FeedParseError("Malformed XML: the DOCTYPE is never closed");
      const doctype = text.slice(i, end);
      if (/^<!doctype\s+html\b/i.test(doctype)) {
        throw new FeedParseError("Not a feed: the document is HTML");
      }
      if (/<!ENTITY/i.test(doctype)) {
        throw new FeedParseError("Refused: the feed declares a DTD with entities");
      }
      text = text.slice(0, i) + text.slice(end);
    } else {
      break;
    }
  }
  if (/^<html[\s>]/i.test(text.slice(i, i + 6))) {
    throw new FeedParseError("Not a feed: the document is HTML");
  }
  return text;
}

// ---------------------------------------------------------------------------------------------------------
// Parsing

function lastCompleteItemEnd(xml: string): number {
  const pattern = /<\/(?:[A-Za-z0-9_-]+:)?(?:item|entry)\s*>/g;
  let end = -1;
  for (let m = pattern.exec(xml); m !== null; m = pattern.exec(xml)) end = m.index + m[0].length;
  return end;
}

function describeMalformed(xml: string, error: unknown): string {
  const result = XMLValidator.validate(xml, { allowBooleanAttributes: true });
  if (result !== true) {
    const msg = result.err.msg.replace(/\s+/g, " ").trim();
    return `Malformed XML at line ${result.err.line}: ${msg}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Malformed XML: ${message.replace(/\s+/g, " ").trim()}`;
}

// An item or entry start tag; whether it closes itself is read from where it ends.
const ITEM_START = /<(?:[A-Za-z0-9_.-]+:)?(?:item|entry)(?=[\s/>]|$)/g;
const ROOT_END = /<\/(?:[A-Za-z0-9_.-]+:)?(?:rss|feed|RDF|channel)\s*>$/;

/** Whether an item or entry opens after the last complete one and never closes: the body was cut off. */
function breaksOffInsideItem(xml: string): boolean {
  if (ROOT_END.test(xml.slice(-256).trimEnd())) return false;
  ITEM_START.lastIndex = Math.max(0, lastCompleteItemEnd(xml));
  for (let m = ITEM_START.exec(xml); m !== null; m = ITEM_START.exec(xml)) {
    const end = xml.indexOf(">", m.index);
    if (end === -1 || xml.charAt(end - 1) !== "/") return true;
  }
  return false;
}

/**
 * Parses a prepared document (see `preparePrologue`) into its root element. A document the parser rejects,
 * or one that breaks off inside an item, is read cut after its last complete item or entry, so a truncated
 * feed yields what it holds (`damaged`). The cut-off item itself is never read: with its later fields
 * missing it would overwrite a stored article with blanks.
 */
function parseXml(xml: string): { root: XmlElement; damaged: boolean } {
  let firstError: unknown = null;
  if (breaksOffInsideItem(xml)) {
    firstError = new Error("the document ends inside an item");
  } else {
    try {
      const root = readXml(xml);
      if (root !== null) return { root, damaged: false };
    } catch (error) {
      firstError = error;
    }
  }
  const cut = lastCompleteItemEnd(xml);
  if (cut > 0 && cut < xml.length) {
    try {
      const root = readXml(xml.slice(0, cut));
      if (root !== null) return { root, damaged: true };
    } catch (error) {
      firstError ??= error;
    }
  }
  throw new FeedParseError(describeMalformed(xml, firstError));
}

// ---------------------------------------------------------------------------------------------------------
// Reading the tree

function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((n): n is XmlElement => n.kind === "element");
}

function hasElements(el: XmlElement): boolean {
  for (const node of el.children) if (node.kind === "element") return true;
  return false;
}

function inNamespace(el: XmlElement, ns: string | readonly string[]): boolean {
  return typeof ns === "string" ? el.ns === ns : ns.includes(el.ns);
}

/** Child elements in namespace `ns` (a key such as "", "atom", "media") named `local`. */
function childrenNamed(
  el: XmlElement,
  ns: string | readonly string[],
  local: string,
): XmlElement[] {
  const found: XmlElement[] = [];
  for (const node of el.children) {
    if (node.kind === "element" && node.local === local && inNamespace(node, ns)) found.push(node);
  }
  return found;
}

function childNamed(
  el: XmlElement,
  ns: string | readonly string[],
  local: string,
): XmlElement | null {
  for (const node of el.children) {
    if (node.kind === "element" && node.local === local && inNamespace(node, ns)) return node;
  }
  return null;
}

/** An attribute by its name as written (`href`, `xml:base`, `rdf:about`), entities decoded. */
function attr(el: XmlElement, name: string): string | null {
  const exact = el.attrs[name];
  if (exact !== undefined) return decodeEntities(exact);
  let wanted: string | null = null;
  let wantedSuffix: string | null = null;
  for (const key in el.attrs) {
    if (wanted === null) {
      wanted = name.toLowerCase();
      const colon = wanted.indexOf(":");
      wantedSuffix = colon === -1 ? null : wanted.slice(colon);
    }
    const lower = key.toLowerCase();
    // Another case, or (for a prefixed name like rdf:about) another prefix for the same attribute.
    if (
      lower === wanted ||
      (wantedSuffix !== null && lower.includes(":") && lower.endsWith(wantedSuffix))
    ) {
      return decodeEntities(el.attrs[key] ?? "");
    }
  }
  return null;
}

/** The text of an element and its descendants, entities decoded, CDATA as is. Not trimmed. */
function textContent(el: XmlElement, depth = 0): string {
  let out = "";
  for (const node of el.children) {
    if (node.kind === "text") out += decodeEntities(node.raw);
    else if (node.kind === "cdata") out += node.value;
    else if (depth < 64) out += textContent(node, depth + 1);
  }
  return out;
}

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** The markup inside an element, as HTML: XHTML elements lose their prefix, namespace declarations go. */
function innerMarkup(el: XmlElement, depth = 0): string {
  let out = "";
  for (const node of el.children) {
    if (node.kind === "text") out += node.raw;
    else if (node.kind === "cdata") out += escapeHtml(node.value);
    else if (depth < 64) {
      const name = node.ns === "xhtml" ? node.local : node.name;
      let attrs = "";
      for (const key in node.attrs) {
        if (key === "xmlns" || key.startsWith("xmlns:")) continue;
        attrs += ` ${key}="${escapeAttr(decodeEntities(node.attrs[key] ?? ""))}"`;
      }
      const inner = innerMarkup(node, depth + 1);
      out +=
        inner === "" && VOID_ELEMENTS.has(name.toLowerCase())
          ? `<${name}${attrs} />`
          : `<${name}${attrs}>${inner}</${name}>`;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Feed mapping

const ATOM = ["atom", ""] as const;

function text(el: XmlElement | null): string | null {
  if (el === null) return null;
  const value = textContent(el).trim();
  return value === "" ? null : value;
}

function firstText(candidates: (XmlElement | null)[]): string | null {
  for (const el of candidates) {
    const value = text(el);
    if (value !== null) return value;
  }
  return null;
}

/** An RSS field that may hold HTML: escaped or CDATA markup as text, or (invalid but seen) naked markup. */
function rssHtml(el: XmlElement | null): string | null {
  if (el === null) return null;
  const value = (hasElements(el) ? innerMarkup(el) : textContent(el)).trim();
  return value === "" ? null : value;
}

/** Plain text as HTML, so every RawItem string field can be read as HTML. */
function plainAsHtml(el: XmlElement | null): string | null {
  const value = text(el);
  return value === null ? null : escapeHtml(value);
}

function decodeBase64(value: string): string | null {
  const compact = value.replace(/\s+/g, "");
  if (compact === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, "base64").toString("utf8");
}

/**
 * An Atom text construct (title, summary, content) as HTML. Atom 1.0: type text | html | xhtml | a MIME
 * type; Atom 0.3: a MIME type and mode xml | escaped | base64.
 */
function atomHtml(el: XmlElement | null): string | null {
  if (el === null || attr(el, "src") !== null) return null;
  const type = (attr(el, "type") ?? "text").trim().toLowerCase();
  const mode = (attr(el, "mode") ?? "").trim().toLowerCase();
  const isHtml = type === "html" || type === "text/html";
  const isText = type === "text" || (type.startsWith("text/") && !isHtml);
  const isXml =
    type === "xhtml" || type.endsWith("+xml") || type.endsWith("/xml") || mode === "xml";

  let value: string;
  if (mode === "base64" || (!isHtml && !isText && !isXml && mode !== "escaped")) {
    const raw = textContent(el);
    const decoded = decodeBase64(raw);
    value = decoded ?? raw;
    if (isText && decoded !== null) value = escapeHtml(decoded);
  } else if (mode === "escaped" || isHtml) {
    value = isText ? escapeHtml(textContent(el)) : textContent(el);
  } else if (isXml) {
    const div = childNamed(el, "xhtml", "div");
    const onlyDiv = div !== null && elements(el).length === 1;
    value = innerMarkup(onlyDiv ? div : el);
  } else {
    value = escapeHtml(textContent(el));
  }
  value = value.trim();
  return value === "" ? null : value;
}

function resolveBase(base: string | null, parent: string | null): string | null {
  if (base === null || base.trim() === "") return parent;
  if (parent === null) return base.trim();
  try {
    return new URL(base.trim(), parent).href;
  } catch {
    return base.trim();
  }
}

function xmlBase(el: XmlElement, parent: string | null): string | null {
  return resolveBase(attr(el, "xml:base"), parent);
}

const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif|bmp)(?:$|[?#])/i;

function looksLikeImage(url: string): boolean {
  return IMAGE_PATH.test(url);
}

function isImageType(type: string | null): boolean {
  return type !== null && type.trim().toLowerCase().startsWith("image/");
}

function mediaImages(item: XmlElement): string[] {
  const groups = childrenNamed(item, "media", "group");
  const contents = [item, ...groups].flatMap((el) => childrenNamed(el, "media", "content"));
  const images = contents
    .map((el, index) => ({ el, index, width: Number(attr(el, "width") ?? "0") || 0 }))
    .filter(({ el }) => {
      const url = attr(el, "url");
      if (url === null) return false;
      const medium = attr(el, "medium")?.toLowerCase() ?? null;
      const type = attr(el, "type");
      if (medium === "image" || isImageType(type)) return true;
      return medium === null && type === null && looksLikeImage(url);
    })
    // The largest rendition first; feeds list several sizes of one picture.
    .sort((a, b) => b.width - a.width || a.index - b.index)
    .map(({ el }) => attr(el, "url") ?? "");
  const thumbnails = [item, ...groups, ...contents]
    .flatMap((el) => childrenNamed(el, "media", "thumbnail"))
    .map((el) => attr(el, "url") ?? "");
  return [...images, ...thumbnails];
}

function enclosureImages(item: XmlElement): string[] {
  const rss = childrenNamed(item, "", "enclosure").map((el) => ({
    url: attr(el, "url"),
    type: attr(el, "type"),
  }));
  const enc = childrenNamed(item, "enc", "enclosure").map((el) => ({
    url: attr(el, "rdf:resource") ?? attr(el, "url"),
    type: attr(el, "enc:type") ?? attr(el, "type"),
  }));
  const atom = childrenNamed(item, ATOM, "link")
    .filter((el) => attr(el, "rel")?.toLowerCase() === "enclosure")
    .map((el) => ({ url: attr(el, "href"), type: attr(el, "type") }));
  return [...rss, ...enc, ...atom]
    .filter(
      ({ url, type }) =>
        url !== null && (isImageType(type) || (type === null && looksLikeImage(url))),
    )
    .map(({ url }) => url ?? "");
}

function otherImages(item: XmlElement): string[] {
  const itunes = childrenNamed(item, "itunes", "image").map(
    (el) => attr(el, "href") ?? text(el) ?? "",
  );
  const plain = childrenNamed(item, "", "image").map((el) => {
    const url = childNamed(el, "", "url");
    if (url !== null) return text(url) ?? "";
    // <image><link>…</link><title>…</title></image> without a <url> is no image.
    if (hasElements(el)) return "";
    const value = attr(el, "href") ?? attr(el, "url") ?? text(el) ?? "";
    return /^(https?:)?\/\//i.test(value) ? value : "";
  });
  return [...itunes, ...plain];
}

function imagesOf(item: XmlElement): string[] {
  const all = [...mediaImages(item), ...enclosureImages(item), ...otherImages(item)];
  return [...new Set(all.map((url) => url.trim()).filter((url) => url !== ""))];
}

function isEmail(value: string): boolean {
  return /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/.test(value.trim());
}

/** The first author that is more than a bare email address, else the first author. */
function pickAuthor(candidates: (string | null)[]): string | null {
  const present = candidates.filter((c): c is string => c !== null && c.trim() !== "");
  return present.find((c) => !isEmail(c)) ?? present[0] ?? null;
}

function joined(values: (string | null)[]): string | null {
  const present = values.filter((v): v is string => v !== null);
  return present.length > 0 ? present.join(", ") : null;
}

function atomAuthors(el: XmlElement): string | null {
  return joined(
    childrenNamed(el, ATOM, "author").map(
      (author) => text(childNamed(author, ATOM, "name")) ?? text(childNamed(author, ATOM, "email")),
    ),
  );
}

function readRssItem(item: XmlElement, parentBase: string | null): RawItem {
  const guidEl = childNamed(item, "", "guid");
  const guid = text(guidEl) ?? attr(item, "rdf:about") ?? text(childNamed(item, ATOM, "id"));
  const atomLink = childrenNamed(item, "atom", "link").find((el) => {
    const rel = attr(el, "rel")?.toLowerCase() ?? "alternate";
    return rel === "alternate";
  });
  let link =
    text(childNamed(item, "feedburner", "origLink")) ??
    firstText(childrenNamed(item, "", "link")) ??
    (atomLink ? attr(atomLink, "href") : null);
  if (link === null && guidEl !== null && guid !== null) {
    const permaLink = (attr(guidEl, "isPermaLink") ?? "true").trim().toLowerCase() !== "false";
    if (permaLink && /^https?:\/\//i.test(guid)) link = guid;
  }
  const media = childrenNamed(item, "media", "group");
  return {
    guid,
    title:
      rssHtml(childNamed(item, "", "title")) ??
      plainAsHtml(childNamed(item, "dc", "title")) ??
      atomHtml(childNamed(item, "atom", "title")) ??
      plainAsHtml(
        childNamed(item, "media", "title") ??
          media.map((g) => childNamed(g, "media", "title")).find((t) => t !== null) ??
          null,
      ),
    link,
    summary:
      rssHtml(childNamed(item, "", "description")) ??
      rssHtml(childNamed(item, "dc", "description")) ??
      atomHtml(childNamed(item, "atom", "summary")) ??
      plainAsHtml(childNamed(item, "itunes", "summary")) ??
      plainAsHtml(
        childNamed(item, "media", "description") ??
          media.map((g) => childNamed(g, "media", "description")).find((d) => d !== null) ??
          null,
      ),
    content:
      rssHtml(childNamed(item, "content", "encoded")) ??
      rssHtml(childNamed(item, "xhtml", "body")) ??
      rssHtml(childNamed(item, "", "fullitem")) ??
      atomHtml(childNamed(item, "atom", "content")),
    date: firstText([
      childNamed(item, "", "pubDate"),
      childNamed(item, "dc", "date"),
      childNamed(item, "atom", "published"),
      childNamed(item, "atom", "updated"),
      childNamed(item, "dcterms", "issued"),
      childNamed(item, "dcterms", "modified"),
      childNamed(item, "dcterms", "created"),
      childNamed(item, "dcterms", "date"),
    ]),
    author: pickAuthor([
      text(childNamed(item, "", "author")),
      joined(childrenNamed(item, "dc", "creator").map(text)),
      text(childNamed(item, "dc", "author")),
      text(childNamed(item, "itunes", "author")),
      atomAuthors(item),
    ]),
    images: imagesOf(item),
    base: xmlBase(item, parentBase),
  };
}

function atomLinkOf(entry: XmlElement): string | null {
  const links = childrenNamed(entry, ATOM, "link").filter((el) => attr(el, "href") !== null);
  const alternates = links.filter(
    (el) => (attr(el, "rel") ?? "alternate").trim().toLowerCase() === "alternate",
  );
  const html = alternates.find((el) => {
    const type = attr(el, "type")?.trim().toLowerCase() ?? null;
    return type === null || type === "text/html" || type === "application/xhtml+xml";
  });
  const chosen = html ?? alternates[0] ?? null;
  return chosen === null ? null : (attr(chosen, "href")?.trim() ?? null);
}

function readAtomEntry(entry: XmlElement, parentBase: string | null, feedAuthor: string | null) {
  const media = childrenNamed(entry, "media", "group");
  const item: RawItem = {
    guid: text(childNamed(entry, ATOM, "id")),
    title:
      atomHtml(childNamed(entry, ATOM, "title")) ??
      plainAsHtml(
        media.map((g) => childNamed(g, "media", "title")).find((t) => t !== null) ?? null,
      ),
    link: text(childNamed(entry, "feedburner", "origLink")) ?? atomLinkOf(entry),
    summary:
      atomHtml(childNamed(entry, ATOM, "summary")) ??
      plainAsHtml(
        media.map((g) => childNamed(g, "media", "description")).find((d) => d !== null) ?? null,
      ),
    content: atomHtml(childNamed(entry, ATOM, "content")),
    date: firstText([
      childNamed(entry, ATOM, "published"),
      childNamed(entry, ATOM, "updated"),
      childNamed(entry, ATOM, "issued"),
      childNamed(entry, ATOM, "modified"),
      childNamed(entry, ATOM, "created"),
      childNamed(entry, "dc", "date"),
    ]),
    author: pickAuthor([
      atomAuthors(entry),
      joined(childrenNamed(entry, "dc", "creator").map(text)),
      (() => {
        const source = childNamed(entry, ATOM, "source");
        return source === null ? null : atomAuthors(source);
      })(),
      feedAuthor,
    ]),
    images: imagesOf(entry),
    base: xmlBase(entry, parentBase),
  };
  return item;
}

/** Finds an element by name anywhere below `el` (bounded), for feeds whose structure is broken. */
function findDescendant(el: XmlElement, ns: string, local: string, depth = 0): XmlElement | null {
  for (const child of elements(el)) {
    if (child.local === local && child.ns === ns) return child;
    if (depth < 4) {
      const found = findDescendant(child, ns, local, depth + 1);
      if (found !== null) return found;
    }
  }
  return null;
}

/** An element with nothing in it (`<item />`, or one cut off by truncation) is not an item. */
function hasContent(item: RawItem): boolean {
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

function ttlOf(channel: XmlElement | null): number | null {
  const ttl = channel === null ? null : text(childNamed(channel, "", "ttl"));
  if (ttl === null || !/^\d+$/.test(ttl)) return null;
  const minutes = Number(ttl);
  return minutes > 0 ? minutes : null;
}

function readRss(root: XmlElement, format: "rss" | "rdf"): Omit<ParsedFeed, "damaged"> {
  const rootBase = xmlBase(root, null);
  const channel =
    childNamed(root, "", "channel") ??
    (root.local === "channel" ? root : findDescendant(root, "", "channel"));
  const channelBase = channel === null ? rootBase : xmlBase(channel, rootBase);
  const feedLink = channel === null ? null : firstText(childrenNamed(channel, "", "link"));
  const items = [
    ...(channel !== null && channel !== root ? childrenNamed(channel, "", "item") : []),
    ...childrenNamed(root, "", "item"),
  ];
  // The channel link is where a site-relative item link points, unless xml:base says otherwise.
  const itemBase = channelBase ?? feedLink;
  const titleHtml = channel === null ? null : rssHtml(childNamed(channel, "", "title"));
  return {
    format,
    title: titleHtml === null ? null : stripTags(titleHtml) || null,
    link: feedLink,
    ttlMinutes: ttlOf(channel),
    items: items.map((item) => readRssItem(item, itemBase)).filter(hasContent),
  };
}

function readAtom(root: XmlElement): Omit<ParsedFeed, "damaged"> {
  const base = xmlBase(root, null);
  const titleHtml = atomHtml(childNamed(root, ATOM, "title"));
  return {
    format: "atom",
    title: titleHtml === null ? null : stripTags(titleHtml) || null,
    link: atomLinkOf(root),
    ttlMinutes: null,
    items: childrenNamed(root, ATOM, "entry")
      .map((entry) => readAtomEntry(entry, base, atomAuthors(root)))
      .filter(hasContent),
  };
}

/**
 * The body as XML text ready for the readers: decoded, junk before the root cut off, DOCTYPE removed.
 * Throws FeedParseError as `parseFeed` does for what is plainly not a feed.
 */
export function feedText(body: Uint8Array, options: { contentType?: string | null } = {}): string {
  return preparePrologue(decodeFeedBytes(body, options.contentType));
}

/**
 * Reads an RSS 0.9x/2.0, RSS 1.0 (RDF) or Atom 1.0/0.3 document. Throws FeedParseError, with a one-line
 * message, when the body is not a feed or cannot be read at all; a damaged feed yields what it holds.
 */
export function parseFeed(
  body: Uint8Array,
  options: { contentType?: string | null } = {},
): ParsedFeed {
  const { root, damaged } = parseXml(feedText(body, options));
  if (root.local.toLowerCase() === "html")
    throw new FeedParseError("Not a feed: the document is HTML");
  if (root.local === "rss" || (root.local === "channel" && root.ns === "")) {
    return { ...readRss(root, "rss"), damaged };
  }
  if (root.local === "RDF") return { ...readRss(root, "rdf"), damaged };
  if (root.local === "feed") return { ...readAtom(root), damaged };
  throw new FeedParseError(`Not a feed: the root element is <${root.name}>`);
}
