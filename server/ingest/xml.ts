/**
 * XML text to a small element tree, and the queries feed readers make of it: fast-xml-parser reads the
 * document (leniently, in order) and each element gets the short key of its namespace, which the parser
 * does not resolve.
 *
 * No entity is ever expanded here: text and attribute values are kept as written, and decoded strictly
 * by the reader of each field (see `decodeEntities`).
 */
import { XMLParser } from "fast-xml-parser";
import { decodeEntities, escapeAttr, escapeHtml } from "../lib/text";

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

interface XmlText {
  kind: "text";
  raw: string;
}

interface XmlCdata {
  kind: "cdata";
  value: string;
}

export type XmlNode = XmlElement | XmlText | XmlCdata;

// ---------------------------------------------------------------------------------------------------------
// Namespaces

// Maps, not plain objects: a feed's own names ("constructor", "__proto__") must not find Object's.
const KNOWN_NAMESPACES = new Map<string, string>(
  Object.entries({
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
  }),
);

function namespaceKey(uri: string): string {
  const key = uri
    .trim()
    .toLowerCase()
    .replace(/[/#]+$/, "");
  return KNOWN_NAMESPACES.get(key) ?? uri;
}

// Prefixes used without a declaration (common in the wild) are read by their usual meaning: the
// prefix itself for most (atom, dc, dcterms, content, media, itunes, rdf, xhtml, xml, enc,
// feedburner are the keys of their namespaces), these for the others.
const CONVENTIONAL_PREFIXES = new Map([["a10", "atom"]]);

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
        : (CONVENTIONAL_PREFIXES.get(prefix.toLowerCase()) ?? prefix.toLowerCase());
  return { kind: "element", name, local, ns, attrs, children: [] };
}

// ---------------------------------------------------------------------------------------------------------
// Reading

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
  // Entities are decoded strictly (the entities package) by each field reader; the parser expands none.
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
 * Reads a prepared document (no DOCTYPE) into its first top-level element (`null` when it has none).
 * Throws the parser's error when it cannot read the document at all.
 */
export function readXml(xml: string): XmlElement | null {
  const nodes = convertNodes(parser.parse(xml), TOP_SCOPE);
  return nodes.find((node): node is XmlElement => node.kind === "element") ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Queries

export function elements(el: XmlElement): XmlElement[] {
  return el.children.filter((n): n is XmlElement => n.kind === "element");
}

export function hasElements(el: XmlElement): boolean {
  return el.children.some((n) => n.kind === "element");
}

/** Child elements in namespace `ns` (a key such as "", "atom", "media") named `local`. */
export function childrenNamed(
  el: XmlElement,
  ns: string | readonly string[],
  local: string,
): XmlElement[] {
  const namespaces: readonly string[] = typeof ns === "string" ? [ns] : ns;
  return elements(el).filter((child) => child.local === local && namespaces.includes(child.ns));
}

export function childNamed(
  el: XmlElement,
  ns: string | readonly string[],
  local: string,
): XmlElement | null {
  return childrenNamed(el, ns, local)[0] ?? null;
}

/** An attribute by its name as written (`href`, `xml:base`, `rdf:about`), entities decoded. */
export function attr(el: XmlElement, name: string): string | null {
  const wanted = name.toLowerCase();
  const colon = wanted.indexOf(":");
  const suffix = colon === -1 ? null : wanted.slice(colon);
  const key =
    el.attrs[name] !== undefined
      ? name
      : // Another case, or (for a prefixed name like rdf:about) another prefix for the same attribute.
        Object.keys(el.attrs).find((key) => {
          const lower = key.toLowerCase();
          return (
            lower === wanted || (suffix !== null && lower.includes(":") && lower.endsWith(suffix))
          );
        });
  return key === undefined ? null : decodeEntities(el.attrs[key] ?? "");
}

/** The text of an element and its descendants, entities decoded, CDATA as is. Not trimmed. */
export function textContent(el: XmlElement, depth = 0): string {
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
export function innerMarkup(el: XmlElement, depth = 0): string {
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
