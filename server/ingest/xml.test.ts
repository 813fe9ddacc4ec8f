import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { feedText } from "./parse";
import { readXml, readXmlCompat, readXmlFast, type XmlElement, type XmlNode } from "./xml";

/** The tree with adjacent text nodes joined: where text is cut is no part of the contract. */
function joined(el: XmlElement | null): unknown {
  if (el === null) return null;
  const children: unknown[] = [];
  let text: string | null = null;
  const flush = () => {
    if (text !== null) children.push({ kind: "text", raw: text });
    text = null;
  };
  for (const node of el.children as XmlNode[]) {
    if (node.kind === "text") {
      text = (text ?? "") + node.raw;
      continue;
    }
    flush();
    children.push(node.kind === "element" ? joined(node) : node);
  }
  flush();
  return { ...el, attrs: { ...el.attrs }, children };
}

type Outcome = { tree: unknown } | { error: true };

function compat(xml: string): Outcome {
  try {
    return { tree: joined(readXmlCompat(xml)) };
  } catch {
    return { error: true };
  }
}

/** The fast reader either gives up or builds exactly the compat reader's tree. */
function expectSameTree(xml: string): boolean {
  const fast = readXmlFast(xml);
  if (fast === undefined) return false;
  expect({ tree: joined(fast) }).toEqual(compat(xml));
  return true;
}

describe("readXmlFast builds the tree fast-xml-parser builds", () => {
  it.each([
    [
      "elements, text and attributes",
      `<rss a="1" b='2' c><channel><title>T &amp; U</title></channel></rss>`,
    ],
    ["CDATA and comments", "<a>x<![CDATA[<p>y</p>]]>z<!-- c -->w</a>"],
    ["processing instructions", `<?xml version="1.0"?><a>x<?pi y?>z</a>`],
    ["CRLF", "<a>\r\nx\ry\r\n</a>"],
    ["a closing tag closes whatever is open", "<a><b>x</a>y</b>z<c/></a>"],
    ["an unclosed root", "<rss><channel><item><title>t</title>"],
    ["text after the root", "<a>x</a>tail"],
    ["self-closing and empty", `<a><b/><c x="1"/><d /></a>`],
    ["attribute oddities", `<a x=1 y = "2" z="a>b" w='"' v="'"  u>t</a>`],
    ["a name repeated as its attributes", "<a a>t</a>"],
    ["tabs and newlines in tags", `<a\tx="1"\ny='2'>t</a\n>`],
    [
      "namespaces by URI",
      `<r xmlns="http://www.w3.org/2005/Atom" xmlns:m="http://search.yahoo.com/mrss/"><m:c/></r>`,
    ],
  ])("%s", (_name, xml) => {
    expect(expectSameTree(xml)).toBe(true);
  });

  it.each([
    ["a tag never closed", "<a><b"],
    ["a comment never closed", "<a><!-- x"],
    ["CDATA never closed", "<a><![CDATA[x"],
    ["a DOCTYPE", "<!DOCTYPE a><a/>"],
    ["a `<` that starts no tag", "<a>1 < 2</a>"],
    ["a name fast-xml-parser treats specially", "<a><constructor/></a>"],
    ["an attribute fast-xml-parser treats specially", `<a __proto__="x"/>`],
    ["a non-ASCII name", "<título/>"],
    ["deep nesting", "<a>".repeat(200)],
  ])("leaves %s to the compat reader", (_name, xml) => {
    expect(readXmlFast(xml)).toBeUndefined();
  });

  it("reads every fixture, corpus and conformance document as the compat reader does", () => {
    const corpus = process.env.FEED_CORPUS_DIR ?? path.resolve("../shared/feed-corpus");
    const dirs = [
      path.join(import.meta.dirname, "fixtures"),
      path.join(corpus, "real"),
      path.join(corpus, "conformance"),
    ];
    let fast = 0;
    for (const dir of dirs.filter((d) => existsSync(d))) {
      for (const file of readdirSync(dir).filter((f) => /\.(xml|rss|atom|rdf)$/.test(f))) {
        let xml: string;
        try {
          xml = feedText(readFileSync(path.join(dir, file)));
        } catch {
          continue;
        }
        if (expectSameTree(xml)) fast++;
        // Whatever reads it, readXml gives the compat reader's outcome.
        let outcome: Outcome;
        try {
          outcome = { tree: joined(readXml(xml)) };
        } catch {
          outcome = { error: true };
        }
        expect(outcome).toEqual(compat(xml));
      }
    }
    expect(fast).toBeGreaterThan(10);
  });

  it("on generated documents", () => {
    const piece = fc.constantFrom(
      "<a>",
      "</a>",
      "<b x='1'>",
      '<c y="2"/>',
      "</b>",
      "</c>",
      "<d/>",
      "<a:e xmlns:a='http://purl.org/dc/elements/1.1/'>",
      "</a:e>",
      "<",
      ">",
      "/",
      "=",
      '"',
      "'",
      " ",
      "\t",
      "\r\n",
      "\r",
      "text",
      "&amp;",
      "&",
      "<!--",
      "-->",
      "<![CDATA[",
      "]]>",
      "<?pi?>",
      "<?xml version='1.0'?>",
      "<a a>",
      "<f g=h>",
      "é",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expectSameTree(pieces.join(""));
      }),
      { numRuns: 5000, seed: 20261122 },
    );
  });
});
