/**
 * XML text to a small element tree, for parse.ts. Two readers build the same tree:
 *
 * - `readXmlFast`, one pass with indexOf over the text, for the constructs feeds are made of (elements,
 *   attributes, text, CDATA, comments, processing instructions). It gives up (returns `undefined`) at
 *   anything else, or anything where the two readers could differ.
 * - `readXmlCompat`, fast-xml-parser's lenient reader, which reads what the fast one gives up on and is the
 *   reference the fast one is tested against (xml.test.ts).
 *
 * Neither ever expands an entity: text and attribute values are kept as written.
 */
import { XMLParser } from "fast-xml-parser";
import { decodeEntities } from "./text";

export interface XmlElement {
  kind: "element";
  /** The name as written, with its prefix. */
  name: string;
  local: string;
  /** Short key of the namespace ("atom", "dc", "media", ...), "" for none or plain RSS, else the URI. */
  ns: string;
  /** Attribute values as written (entities not yet decoded). */
  attrs: Record<string, string>;
  children: XmlNode[];
}

export interface XmlText {
  kind: "text";
  raw: string;
}

export interface XmlCdata {
  kind: "cdata";
  value: string;
}

export type XmlNode = XmlElement | XmlText | XmlCdata;

// ---------------------------------------------------------------------------------------------------------
// Namespaces

const KNOWN_NAMESPACES: Record<string, string> = {
  "http://www.w3.org/2005/atom": "atom",
  "http://purl.org/atom/ns": "atom",
  "http://purl.org/rss/1.0": "",
  "http://my.netscape.com/rdf/simple/0.9": "",
  "http://backend.userland.com/rss2": "",
  "http://blogs.law.harvard.edu/tech/rss": "",
  "http://www.w3.org/1999/02/22-rdf-syntax-ns": "rdf",
  "http://purl.org/dc/elements/1.1": "dc",
  "http://purl.org/dc/terms": "dcterms",
  "http://purl.org/rss/1.0/modules/content": "content",
  "http://search.yahoo.com/mrss": "media",
  "http://tools.search.yahoo.com/mrss": "media",
  "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
  "http://www.w3.org/1999/xhtml": "xhtml",
  "http://www.w3.org/xml/1998/namespace": "xml",
  "http://purl.org/rss/1.0/modules/enclosure": "enc",
  "http://rssnamespace.org/feedburner/ext/1.0": "feedburner",
};

const namespaceKeys = new Map<string, string>();

function namespaceKey(uri: string): string {
  let key = namespaceKeys.get(uri);
  if (key === undefined) {
    key = readNamespaceKey(uri);
    if (namespaceKeys.size < 1000) namespaceKeys.set(uri, key);
  }
  return key;
}

function readNamespaceKey(uri: string): string {
  const key = uri
    .trim()
    .toLowerCase()
    .replace(/[/#]+$/, "");
  return KNOWN_NAMESPACES[key] ?? uri;
}

// Prefixes used without a declaration (common in the wild) are read by their usual meaning.
const CONVENTIONAL_PREFIXES: Record<string, string> = {
  atom: "atom",
  a10: "atom",
  dc: "dc",
  dcterms: "dcterms",
  content: "content",
  media: "media",
  itunes: "itunes",
  rdf: "rdf",
  xhtml: "xhtml",
  xml: "xml",
  enc: "enc",
  feedburner: "feedburner",
};

/** Prefix → namespace URI in effect; "" is the default namespace. */
type Scope = Map<string, string>;

const TOP_SCOPE: Scope = new Map([["xml", "xml"]]);

/** The scope inside an element with these attributes (the parent's own scope when nothing is declared). */
function scopeOf(attrs: Record<string, string>, parentScope: Scope): Scope {
  let scope = parentScope;
  for (const attr in attrs) {
    if (attr === "xmlns" || attr.startsWith("xmlns:")) {
      if (scope === parentScope) scope = new Map(parentScope);
      scope.set(attr === "xmlns" ? "" : attr.slice(6), decodeEntities(attrs[attr] ?? ""));
    }
  }
  return scope;
}

function makeElement(name: string, attrs: Record<string, string>, scope: Scope): XmlElement {
  const colon = name.indexOf(":");
  const prefix = colon === -1 ? "" : name.slice(0, colon);
  const local = colon === -1 ? name : name.slice(colon + 1);
  const uri = scope.get(prefix);
  const ns =
    uri !== undefined
      ? namespaceKey(uri)
      : prefix === ""
        ? ""
        : (CONVENTIONAL_PREFIXES[prefix.toLowerCase()] ?? prefix.toLowerCase());
  return { kind: "element", name, local, ns, attrs, children: [] };
}

// ---------------------------------------------------------------------------------------------------------
// The fast reader

// fast-xml-parser's attribute grammar, used as is so that both readers split attributes alike: a name, then
// optionally `=` and a quoted value. Anything else (an unquoted value, a stray word) is a valueless name.
const ATTRIBUTE = /([^\s=]+)\s*(=\s*(?:"([^"]*)"|'([^']*)'))?/g;

// Names the fast reader accepts: ASCII XML names, which is what feeds use. Others go to the compat reader.
const SIMPLE_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

// Names fast-xml-parser refuses or renames (it builds plain objects keyed by name).
const RESERVED_NAMES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

/** The characters of SIMPLE_NAME. */
function isNameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x3a) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

// fast-xml-parser's nesting limit is 100 open elements; deeper documents go to it and fail there alike.
const MAX_DEPTH = 90;

/**
 * Attributes from the part of a tag after its name, or `undefined` when a name is one the compat reader
 * treats specially. Valueless attributes are "".
 */
function readAttributes(source: string): Record<string, string> | undefined {
  const attrs: Record<string, string> = {};
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(source); m !== null; m = ATTRIBUTE.exec(source)) {
    const name = m[1] ?? "";
    if (RESERVED_NAMES.has(name)) return undefined;
    attrs[name] = m[3] ?? m[4] ?? "";
  }
  return attrs;
}

/**
 * Finds where tags end, as fast-xml-parser does: at the first `>` (or `?>`) outside quoted strings. Quotes
 * are looked up with indexOf and remembered, so that the whole document costs one pass.
 */
class TagEnds {
  private nextDouble = -2;
  private nextSingle = -2;

  constructor(private readonly xml: string) {}

  private quoteAfter(from: number): number {
    if (this.nextDouble !== -1 && this.nextDouble < from)
      this.nextDouble = this.xml.indexOf('"', from);
    if (this.nextSingle !== -1 && this.nextSingle < from)
      this.nextSingle = this.xml.indexOf("'", from);
    if (this.nextDouble === -1) return this.nextSingle;
    if (this.nextSingle === -1) return this.nextDouble;
    return Math.min(this.nextDouble, this.nextSingle);
  }

  /** Index of the `>` (or the `?` of `?>`) ending the tag whose content starts at `from`; -1 if none. */
  find(from: number, close: string): number {
    const xml = this.xml;
    let i = from;
    for (;;) {
      const end = xml.indexOf(close, i);
      if (end === -1) return -1;
      const quote = this.quoteAfter(i);
      if (quote === -1 || quote > end) return end;
      const closing = xml.indexOf(xml.charAt(quote), quote + 1);
      if (closing === -1) return -1;
      i = closing + 1;
    }
  }
}

// Shared by every element without attributes (attributes are never changed once read).
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

interface Open {
  element: XmlElement;
  scope: Scope;
}

/**
 * Reads a prepared document (no DOCTYPE) into its first top-level element; `null` when it has none.
 * Returns `undefined` when the document holds anything the fast reader leaves to `readXmlCompat`: an
 * unclosed tag, comment or CDATA section, `<` not starting a tag, a DOCTYPE, unusual names, deep nesting.
 * What it does read, it reads exactly as `readXmlCompat` does, leniencies included: a closing tag closes
 * the innermost open element whatever its name, text after the last tag is dropped, and so on.
 */
export function readXmlFast(input: string): XmlElement | null | undefined {
  const xml = input.includes("\r") ? input.replace(/\r\n?/g, "\n") : input;
  const top: XmlNode[] = [];
  const stack: Open[] = [];
  let children = top;
  let scope = TOP_SCOPE;
  // Text since the last tag; comments do not interrupt it.
  let text = "";
  // (fast-xml-parser turns tabs outside quotes into spaces: that changes nothing in what it reads.)
  const tagEnds = new TagEnds(xml);
  let i = 0;
  for (;;) {
    const lt = xml.indexOf("<", i);
    if (lt === -1) break;
    if (lt > i) text += xml.slice(i, lt);
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 0x2f) {
      // </name>: closes the innermost open element, whatever the name says.
      const gt = xml.indexOf(">", lt);
      if (gt === -1) return undefined;
      // (No reserved name is shorter than 7 characters.)
      if (gt - lt - 2 >= 7 && RESERVED_NAMES.has(xml.slice(lt + 2, gt).trim())) return undefined;
      if (text !== "") children.push({ kind: "text", raw: text });
      text = "";
      stack.pop();
      const parent = stack[stack.length - 1];
      children = parent === undefined ? top : parent.element.children;
      scope = parent === undefined ? TOP_SCOPE : parent.scope;
      i = gt + 1;
    } else if (c1 === 0x3f) {
      // <?pi ...?>: ignored, but it ends the text before it.
      const end = tagEnds.find(lt + 1, "?>");
      if (end === -1) return undefined;
      const expression = xml.slice(lt + 1, end);
      const space = expression.search(/\s/);
      if (space !== -1 && readAttributes(expression.slice(space + 1)) === undefined)
        return undefined;
      if (text !== "") children.push({ kind: "text", raw: text });
      text = "";
      i = end + 2;
    } else if (c1 === 0x21) {
      if (xml.startsWith("--", lt + 2)) {
        const end = xml.indexOf("-->", lt + 4);
        if (end === -1) return undefined;
        i = end + 3;
      } else if (xml.startsWith("[CDATA[", lt + 2)) {
        const end = xml.indexOf("]]>", lt);
        if (end === -1) return undefined;
        if (text !== "") children.push({ kind: "text", raw: text });
        text = "";
        children.push({ kind: "cdata", value: xml.slice(lt + 9, end) });
        i = end + 3;
      } else {
        return undefined;
      }
    } else {
      // The usual tag is a plain name and `>` or `/>`; anything else is read as fast-xml-parser reads it.
      let nameEnd = lt + 1;
      while (nameEnd < xml.length && isNameChar(xml.charCodeAt(nameEnd))) nameEnd++;
      const stop = xml.charCodeAt(nameEnd);
      let gt: number;
      let name: string;
      let rest = "";
      let selfClosing = false;
      if (stop === 0x3e) {
        gt = nameEnd;
        name = xml.slice(lt + 1, nameEnd);
      } else if (stop === 0x2f && xml.charCodeAt(nameEnd + 1) === 0x3e) {
        gt = nameEnd + 1;
        name = xml.slice(lt + 1, nameEnd);
        selfClosing = true;
      } else {
        gt = tagEnds.find(lt + 1, ">");
        if (gt === -1) return undefined;
        const expression = xml.slice(lt + 1, gt);
        const space = expression.search(/\s/);
        name = space === -1 ? expression : expression.slice(0, space);
        rest = space === -1 ? "" : expression.slice(space + 1).trimStart();
        if (space === -1) {
          if (name.endsWith("/")) {
            selfClosing = true;
            name = name.slice(0, -1);
          }
        } else if (rest.endsWith("/")) {
          selfClosing = true;
          rest = rest.slice(0, -1);
        }
      }
      if (!SIMPLE_NAME.test(name) || RESERVED_NAMES.has(name)) return undefined;
      // fast-xml-parser reads no attributes when what follows the name repeats the name (`<a a>`).
      const attrs = rest === "" || rest === name ? NO_ATTRIBUTES : readAttributes(rest);
      if (attrs === undefined) return undefined;
      if (text !== "" && stack.length > 0) children.push({ kind: "text", raw: text });
      text = "";
      const elementScope = rest === "" ? scope : scopeOf(attrs, scope);
      const element = makeElement(name, attrs, elementScope);
      children.push(element);
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) return undefined;
        stack.push({ element, scope: elementScope });
        children = element.children;
        scope = elementScope;
      }
      i = gt + 1;
    }
  }
  return rootOf(top);
}

function rootOf(nodes: XmlNode[]): XmlElement | null {
  for (const node of nodes) if (node.kind === "element") return node;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// The compat reader

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  allowBooleanAttributes: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: "#cdata",
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Entities are decoded by us, strictly, after parsing; the parser never expands anything.
  processEntities: false,
  htmlEntities: false,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function convertAttrs(value: unknown): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (!isRecord(value)) return attrs;
  for (const [name, v] of Object.entries(value)) {
    attrs[name] = typeof v === "string" ? v : "";
  }
  return attrs;
}

function convertNodes(nodes: unknown, scope: Scope): XmlNode[] {
  const out: XmlNode[] = [];
  if (!Array.isArray(nodes)) return out;
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === ":@") continue;
      if (key === "#text") {
        out.push({ kind: "text", raw: typeof value === "string" ? value : String(value) });
      } else if (key === "#cdata") {
        const inner = Array.isArray(value) ? value : [];
        const text = inner
          .map((part: unknown) => (isRecord(part) ? String(part["#text"] ?? "") : ""))
          .join("");
        out.push({ kind: "cdata", value: text });
      } else if (key !== "") {
        const attrs = convertAttrs(node[":@"]);
        const elementScope = scopeOf(attrs, scope);
        const element = makeElement(key, attrs, elementScope);
        element.children = convertNodes(value, elementScope);
        out.push(element);
      }
    }
  }
  return out;
}

/**
 * Reads a prepared document with fast-xml-parser into its first top-level element (`null` when it has
 * none). Throws the parser's error when it cannot read the document at all.
 */
export function readXmlCompat(xml: string): XmlElement | null {
  return rootOf(convertNodes(parser.parse(xml), TOP_SCOPE));
}

/** Reads a prepared document: the fast reader, else the compat reader. Throws as `readXmlCompat` does. */
export function readXml(xml: string): XmlElement | null {
  const fast = readXmlFast(xml);
  return fast === undefined ? readXmlCompat(xml) : fast;
}
