import { describe, expect, it } from "vitest";
import { readXml, type XmlElement, type XmlNode } from "./xml";

/** Elements as `name{ns}[children]`, text as written, CDATA as `[[value]]`: the shape in one line. */
function shape(node: XmlNode): string {
  if (node.kind === "text") return node.raw;
  if (node.kind === "cdata") return `[[${node.value}]]`;
  return `${node.name}{${node.ns}}[${node.children.map(shape).join("")}]`;
}

function read(xml: string): XmlElement {
  const root = readXml(xml);
  if (root === null) throw new Error("no root element");
  return root;
}

describe("readXml", () => {
  it.each([
    ["text, entities as written", "<a>T &amp; U</a>", "a{}[T &amp; U]"],
    [
      "CDATA apart from text, comments dropped",
      "<a>x<![CDATA[<p>y</p>]]>z<!-- c -->w</a>",
      "a{}[x[[<p>y</p>]]zw]",
    ],
    ["line ends as LF", "<a>\r\nx\ry\r\n</a>", "a{}[\nx\ny\n]"],
    ["a declaration and PI ignored", `<?xml version="1.0"?><a>x<?pi y?>z</a>`, "a{}[xz]"],
    [
      "an Atom default namespace",
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title></entry></feed>`,
      "feed{atom}[entry{atom}[title{atom}[t]]]",
    ],
    [
      "prefixes by their URI, whatever they are called",
      `<rss xmlns:m="http://search.yahoo.com/mrss/" xmlns:x="http://purl.org/dc/elements/1.1/"><m:c/><x:creator/></rss>`,
      "rss{}[m:c{media}[]x:creator{dc}[]]",
    ],
    [
      "undeclared prefixes by their usual meaning",
      "<rss><dc:creator/><a10:link/></rss>",
      "rss{}[dc:creator{dc}[]a10:link{atom}[]]",
    ],
    [
      "an unknown namespace as its URI",
      `<r xmlns:z="https://z.example/ns"><z:x/></r>`,
      "r{}[z:x{https://z.example/ns}[]]",
    ],
    [
      "a declaration only inside its element",
      `<r><a xmlns="http://www.w3.org/2005/Atom"><b/></a><b/></r>`,
      "r{}[a{atom}[b{atom}[]]b{}[]]",
    ],
    [
      "RSS 1.0's default namespace as plain RSS",
      `<rdf:RDF xmlns="http://purl.org/rss/1.0/"><item/></rdf:RDF>`,
      "rdf:RDF{rdf}[item{}[]]",
    ],
    [
      "names of Object's own properties as plain prefixes and URIs",
      `<r xmlns:p="constructor" xmlns:q="__proto__"><constructor:a/><__proto__:b/><toString:c/><p:d/><q:e/></r>`,
      "r{}[constructor:a{constructor}[]__proto__:b{__proto__}[]toString:c{tostring}[]p:d{constructor}[]q:e{__proto__}[]]",
    ],
    [
      "an unclosed root",
      "<rss><channel><item><title>t</title>",
      "rss{}[channel{}[item{}[title{}[t]]]]",
    ],
  ])("%s", (_name, xml, expected) => {
    expect(shape(read(xml))).toBe(expected);
  });

  it("keeps attribute values as written, valueless ones as empty", () => {
    expect(read(`<a x="1 &amp; 2" y='3' z>t</a>`).attrs).toEqual({ x: "1 &amp; 2", y: "3", z: "" });
  });

  it("finds no root in a document without elements", () => {
    expect(readXml("just text")).toBeNull();
  });
});
