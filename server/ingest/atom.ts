/**
 * An Atom 1.0 or 0.3 document to a ParsedFeed: entries, their text constructs as HTML (text escaped,
 * xhtml serialised, base64 decoded), the alternate link, authors inherited from the feed.
 */
import {
  ATOM,
  firstText,
  hasContent,
  inMediaGroups,
  joined,
  pickAuthor,
  plainAsHtml,
  text,
  xmlBase,
} from "./fields";
import { imagesOf } from "./media-images";
import { stripTags } from "./sanitize";
import { escapeHtml } from "../lib/text";
import type { ParsedFeed, RawItem } from "./types";
import {
  attr,
  childNamed,
  childrenNamed,
  elements,
  innerMarkup,
  textContent,
  type XmlElement,
} from "./xml";

function decodeBase64(value: string): string | null {
  const compact = value.replace(/\s+/g, "");
  if (compact === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, "base64").toString("utf8");
}

/**
 * An Atom construct as HTML. Atom 1.0: a text construct (title, summary) is text, html or xhtml, and any
 * other type is read as text (RFC 4287 §3.1.1); content may also be of another media type, base64 encoded
 * unless it is text or XML (§4.1.3.3). Atom 0.3: a MIME type, and mode xml | escaped | base64.
 */
export function atomHtml(el: XmlElement | null, construct: "text" | "content"): string | null {
  if (el === null || attr(el, "src") !== null) return null;
  const type = (attr(el, "type") ?? "text").trim().toLowerCase();
  const mode = (attr(el, "mode") ?? "").trim().toLowerCase();
  const isHtml = type === "html" || type === "text/html";
  const isText = type === "text" || (type.startsWith("text/") && !isHtml);
  const isXml =
    type === "xhtml" || type.endsWith("+xml") || type.endsWith("/xml") || mode === "xml";
  const isBinary = construct === "content" && type.includes("/") && !isHtml && !isText && !isXml;

  let value: string;
  if (mode === "base64" || (isBinary && mode !== "escaped")) {
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

export function atomAuthors(el: XmlElement): string | null {
  return joined(
    childrenNamed(el, ATOM, "author").map(
      (author) => text(childNamed(author, ATOM, "name")) ?? text(childNamed(author, ATOM, "email")),
    ),
  );
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

function readAtomEntry(
  entry: XmlElement,
  parentBase: string | null,
  feedAuthor: string | null,
): RawItem {
  const media = childrenNamed(entry, "media", "group");
  const source = childNamed(entry, ATOM, "source");
  return {
    guid: text(childNamed(entry, ATOM, "id")),
    title:
      atomHtml(childNamed(entry, ATOM, "title"), "text") ??
      plainAsHtml(inMediaGroups(media, "title")),
    link: text(childNamed(entry, "feedburner", "origLink")) ?? atomLinkOf(entry),
    summary:
      atomHtml(childNamed(entry, ATOM, "summary"), "text") ??
      plainAsHtml(inMediaGroups(media, "description")),
    content: atomHtml(childNamed(entry, ATOM, "content"), "content"),
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
      source === null ? null : atomAuthors(source),
      feedAuthor,
    ]),
    images: imagesOf(entry),
    base: xmlBase(entry, parentBase),
  };
}

export function readAtom(root: XmlElement): Omit<ParsedFeed, "damaged"> {
  const base = xmlBase(root, null);
  const titleHtml = atomHtml(childNamed(root, ATOM, "title"), "text");
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
