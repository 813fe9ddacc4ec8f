import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { readHtml, type HtmlHandler } from "./html";
import { parseFeed } from "./parse";

type Event =
  | ["tag", number, number, boolean]
  | ["open", string, Record<string, string>]
  | ["text", string]
  | ["close", string];

function recorder(): HtmlHandler & { events: Event[] } {
  const events: Event[] = [];
  return {
    events,
    literalTag: (start, end, closing) => events.push(["tag", start, end, closing]),
    wantsAttributes: () => true,
    onopentag: (name, attribs) => events.push(["open", name, { ...attribs }]),
    ontext: (text) => {
      // Where text is cut into events is no part of the contract.
      const last = events[events.length - 1];
      if (last?.[0] === "text") last[1] += text;
      else events.push(["text", text]);
    },
    onclosetag: (name) => events.push(["close", name]),
  };
}

/** htmlparser2's Parser, also reporting tags as written (as sanitize.ts's fallback parser does). */
class ReferenceParser extends Parser {
  constructor(private readonly handler: HtmlHandler) {
    super(handler, { decodeEntities: true });
  }

  override onopentagname(start: number, endIndex: number): void {
    this.handler.literalTag(start, endIndex, false);
    super.onopentagname(start, endIndex);
  }

  override onclosetag(start: number, endIndex: number): void {
    this.handler.literalTag(start, endIndex, true);
    super.onclosetag(start, endIndex);
  }
}

/** The fast reading's events, or null when it gives up; and htmlparser2's. */
function both(fragment: string): { fast: Event[] | null; reference: Event[] } {
  const reference = recorder();
  new ReferenceParser(reference).end(fragment);
  const fast = recorder();
  return { fast: readHtml(fragment, fast) ? fast.events : null, reference: reference.events };
}

function expectSameEvents(fragment: string): boolean {
  const { fast, reference } = both(fragment);
  if (fast !== null) expect(fast).toEqual(reference);
  return fast !== null;
}

describe("readHtml reads fragments as htmlparser2 does", () => {
  it.each([
    ["text and entities", "a &amp; b &amp c &notit; &#65; &#x41 &bogus; <"],
    ["implied closes", "<p>a<div>b<li>c<li>d</div><table><tr><td>x<td>y</table>"],
    ["void and odd closing tags", "a<br>b</br>c</p>d</img>e</>f</ p>g"],
    ["attributes", `<a HREF="x&amp;y" href=z title='t' b c=d/e =f g = "h">i</a>`],
    ["comments and declarations", "<!-->a<!--->b<!-- c -->d<!x>e<!->f>g<?pi>h<![CDATA[i]]>j"],
    ["raw text", "<script>a</p>b</SCRIPT >c<style>d</style><title>&amp;</title><xitle>e</title>"],
    ["self-closing in svg", "<svg><a/><desc><b/>x</desc></svg><b/>y"],
    ["a `<` in a tag name", "<b<p>x</b>y<script<p>z"],
  ])("%s", (_name, fragment) => {
    expect(expectSameEvents(fragment)).toBe(true);
  });

  it.each([
    ["a tag", "a<b c="],
    ["a comment", "a<!-- b"],
    ["raw text", "a<script>b"],
    ["a closing tag", "a</b"],
  ])("gives up on a fragment cut inside %s", (_name, fragment) => {
    expect(both(fragment).fast).toBeNull();
  });

  it("on every fragment of the fixtures and the corpus", () => {
    const corpus = process.env.FEED_CORPUS_DIR ?? path.resolve("../shared/feed-corpus");
    const dirs = [path.join(import.meta.dirname, "fixtures"), path.join(corpus, "real")];
    let read = 0;
    for (const dir of dirs.filter((d) => existsSync(d))) {
      for (const file of readdirSync(dir).filter((f) => /\.(xml|rss|atom|rdf)$/.test(f))) {
        let items;
        try {
          items = parseFeed(readFileSync(path.join(dir, file))).items;
        } catch {
          continue;
        }
        for (const item of items) {
          for (const fragment of [item.title, item.summary, item.content]) {
            if (fragment !== null && expectSameEvents(fragment)) read++;
          }
        }
      }
    }
    expect(read).toBeGreaterThan(20);
  });

  it("on generated markup", () => {
    const piece = fc.constantFrom(
      "<",
      ">",
      "/",
      "!",
      "-",
      "?",
      "[",
      "]",
      "CDATA[",
      "=",
      '"',
      "'",
      " ",
      "\n",
      "\t",
      "\f",
      "&",
      ";",
      "#",
      "x",
      "a",
      "p",
      "P",
      "br",
      "script",
      "SCRIPT",
      "style",
      "title",
      "xitle",
      "tmp",
      "xmp",
      "textarea",
      "svg",
      "math",
      "desc",
      "img",
      "li",
      "td",
      "tr",
      "option",
      "select",
      "amp",
      "lt",
      "copy",
      "notin",
      "65",
      "x41",
      "\u000f",
      "\u001c",
      "é",
      "href",
      "div",
      "body",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expectSameEvents(pieces.join(""));
      }),
      { numRuns: 20000, seed: 20261122 },
    );
  });
});
