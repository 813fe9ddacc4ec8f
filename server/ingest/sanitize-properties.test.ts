/**
 * Properties of the sanitiser on every fragment of the fixtures and the feed corpus, and on generated
 * markup full of tokenizer corner cases: what it writes holds only the allowlist as a browser's parser
 * reads it (happy-dom here, Chromium in e2e/hostile.spec.ts), and for real feeds sanitising it again
 * changes nothing, so stored articles are only rewritten (resanitize.ts) when the policy changes.
 * (Generated markup can nest a block in a paragraph, as htmlparser2 reads it, that a second pass splits.)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { Window } from "happy-dom";
import { afterAll, describe, expect, it } from "vitest";
import { parseFeed } from "./parse";
import { sanitizeFragment, sanitizeHtml } from "./sanitize";

const BASE = "https://news.example.com/section/feed.xml";

const ALLOWED_ATTRIBUTES: Record<string, string[] | undefined> = {
  ...Object.fromEntries(
    "p br ul ol li em strong b i h2 h3 h4 h5 h6 blockquote figure figcaption span code pre"
      .split(" ")
      .map((tag) => [tag, []]),
  ),
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height", "loading"],
};

const window = new Window();
afterAll(() => window.happyDOM.close());

/** What a browser would find in `html` that is outside the allowlist or points at script. */
function problems(html: string): string[] {
  const { body } = window.document;
  body.innerHTML = html;
  const found: string[] = [];
  for (const element of body.querySelectorAll("*")) {
    const tag = element.tagName.toLowerCase();
    const allowed = ALLOWED_ATTRIBUTES[tag];
    if (allowed === undefined) found.push(`<${tag}>`);
    for (const { name } of Array.from(element.attributes)) {
      if (!(allowed ?? []).includes(name)) found.push(`<${tag} ${name}>`);
    }
    const address = element.getAttribute("href") ?? element.getAttribute("src");
    if (address !== null && !/^(?:https?:\/\/|mailto:)/.test(address)) {
      found.push(`<${tag}> to ${address}`);
    }
    if (tag === "a" && element.getAttribute("rel") !== "noopener noreferrer") {
      found.push("<a> without rel");
    }
  }
  return found;
}

function expectSafe(fragment: string): string {
  const { html } = sanitizeFragment(fragment, BASE);
  expect(problems(html), fragment).toEqual([]);
  return html;
}

function expectSafeAndStable(fragment: string): void {
  const html = expectSafe(fragment);
  expect(sanitizeHtml(html, BASE), fragment).toBe(html);
}

function feedFragments(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const fragments: string[] = [];
  for (const file of readdirSync(dir)) {
    if (!/\.(xml|rss|atom|rdf)$/.test(file)) continue;
    try {
      for (const item of parseFeed(readFileSync(path.join(dir, file))).items) {
        for (const value of [item.title, item.summary, item.content, item.author]) {
          if (value !== null) fragments.push(value);
        }
      }
    } catch {
      // Feeds that cannot be read have no fragments.
    }
  }
  return fragments;
}

const CORPUS_DIR = process.env.FEED_CORPUS_DIR ?? path.resolve("../shared/feed-corpus");
const corpusPresent = existsSync(path.join(CORPUS_DIR, "real"));
if (!corpusPresent) {
  console.log(`feed corpus not found at ${CORPUS_DIR}: the sanitiser's corpus check NOT run`);
}

describe("sanitised HTML holds only the allowlist", () => {
  it("on every fragment of the fixtures", () => {
    const fragments = feedFragments(path.join(import.meta.dirname, "fixtures"));
    expect(fragments.length).toBeGreaterThan(20);
    for (const fragment of fragments) expectSafeAndStable(fragment);
  });

  it.skipIf(!corpusPresent)("on every fragment of the corpus", () => {
    const fragments = [
      ...feedFragments(path.join(CORPUS_DIR, "real")),
      ...feedFragments(path.join(CORPUS_DIR, "conformance")),
    ];
    expect(fragments.length).toBeGreaterThan(3000);
    for (const fragment of fragments) expectSafeAndStable(fragment);
  });

  // Pieces of markup that tokenizers disagree about, and of hostile input.
  const piece = fc.constantFrom(
    "<",
    ">",
    "</",
    "/>",
    "<!--",
    "-->",
    "<!-->",
    "<![CDATA[",
    "]]>",
    "<!x>",
    "<?x?>",
    "</>",
    "</ p>",
    "<<p>",
    "&",
    "&amp",
    "&amp;",
    "&lt;",
    "&nbsp;",
    "&copy",
    "&notin;",
    "&notit;",
    "&#65;",
    "&#x41",
    "&#0;",
    "&#150;",
    "&bogus;",
    " ",
    "\n",
    "\t",
    "\u0000",
    "\u00a0",
    "\u200b",
    "\u202e",
    "\u0007",
    "text",
    "é",
    '"',
    "'",
    "`",
    "=",
    "<p>",
    "</p>",
    "<P class=x>",
    "<div>",
    "</div>",
    "<br>",
    "</br>",
    "<li>",
    "<ul>",
    "<h1>",
    "<td>",
    "<tr>",
    "<table>",
    "<pre>",
    "<p:x>",
    "<b>",
    "</b>",
    "<i>",
    "<span>",
    "<code>",
    "<figure>",
    '<a href="https://x.example/a?b=1&amp;c=2">',
    "<a href='/rel'>",
    "<a href=javascript:alert(1)>",
    '<a href="jav&#x09;ascript:x">',
    '<a href="mailto:a@b.example">',
    "<a href=//cdn.example/x title=t>",
    "<a onclick=alert(1)>",
    "<a>",
    "</a>",
    '<img src="/i.png" alt="A &amp; B" width=640 height="50%">',
    "<img src=data:x>",
    "<img alt=x>",
    "<img src=x onerror=alert(1)>",
    "<img src=https://i.example/a.png/>",
    "<script>",
    "</script>",
    "<script<p>",
    "<style>",
    "</style>",
    "<title>",
    "</title>",
    "<xitle>",
    "<tmp>",
    "</xmp>",
    "<textarea>",
    "<svg>",
    "</svg>",
    "<math>",
    "<desc>",
    "<iframe>",
    "<noscript>",
    "<select>",
    "<option>",
    "<object>",
    "<form>",
    "<input>",
    "<head>",
    "<body>",
  );
  const markup = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(""));

  it("on generated markup", () => {
    fc.assert(
      fc.property(markup, (fragment) => {
        expectSafe(fragment);
      }),
      { numRuns: 3000, seed: 20261122 },
    );
  });
});
