/**
 * Decoded feed text to the root element of its XML. Safely: a DTD that declares entities is refused and
 * any other DOCTYPE removed, so nothing a document declares is ever expanded. Leniently: junk before the
 * feed is cut off, and a document that breaks off or is malformed after its last complete item or entry
 * is read up to there.
 */
import { XMLValidator } from "fast-xml-parser";
import { readXml, type XmlElement } from "./xml";

/** The document cannot be read as a feed. The message is one line, fit for a log or the CLI. */
export class FeedParseError extends Error {
  override name = "FeedParseError";
}

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
function parseXml(xml: string): FeedDocument {
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

export interface FeedDocument {
  root: XmlElement;
  /** The document breaks off (or is malformed) after its last complete item: it was read up to there. */
  damaged: boolean;
}

/** Reads decoded feed text into its root element. Throws FeedParseError when it is no XML feed at all. */
export function readFeedDocument(text: string): FeedDocument {
  return parseXml(preparePrologue(text));
}
