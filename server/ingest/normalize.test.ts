import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authorName, cleanLink, normalizeItem } from "./normalize";
import type { NormalizeContext } from "./normalize";
import { parseFeed } from "./parse";
import type { NormalizedArticle, RawItem } from "./types";

const FEED_URL = "https://news.example.com/feeds/local.xml";
const CONTEXT: NormalizeContext = { feedUrl: FEED_URL, category: "local-news", baseUrl: FEED_URL };
/** An absolute address exactly `length` characters long. */
const LONG = (length: number) => {
  const start = "https://i.example/p?q=";
  return start + "a".repeat(length - start.length);
};
const READ_MORE = (href: string) =>
  `<p><a href="${href}" target="_blank" rel="noopener noreferrer">Read full article</a></p>`;

function raw(fields: Partial<RawItem>): RawItem {
  return {
    guid: null,
    title: "Title",
    link: "https://news.example.com/a",
    summary: null,
    content: null,
    date: null,
    author: null,
    images: [],
    base: null,
    ...fields,
  };
}

function normalize(fields: Partial<RawItem>, context = CONTEXT): NormalizedArticle {
  const article = normalizeItem(raw(fields), context);
  if (article === null) throw new Error("item was dropped");
  return article;
}

describe("excerpt", () => {
  it.each([
    ["short text kept whole", "Short summary.", "Short summary."],
    ["exactly 200 characters kept whole", "a".repeat(200), "a".repeat(200)],
    [
      "cut back to the space before a word that crosses 200",
      `${"a".repeat(195)} bcdefghij`,
      `${"a".repeat(195)}...`,
    ],
    ["a word ending exactly at 200", `${"a".repeat(199)} bcd`, `${"a".repeat(199)}...`],
    ["one endless word cut inside", "x".repeat(250), `${"x".repeat(200)}...`],
    [
      "trailing punctuation replaced by the ellipsis",
      `${"a ".repeat(99)}b, cc`,
      `${"a ".repeat(99)}b...`,
    ],
    ["markup removed first", `<p>${"<b>a</b> ".repeat(150)}</p>`, `${"a ".repeat(99)}a...`],
    [
      "script and style text never shows",
      "<style>.x{}</style><p>Visible</p><script>var hidden = 1;</script>",
      "Visible",
    ],
  ])("%s", (_name, summary, expected) => {
    expect(normalize({ summary }).excerpt).toBe(expected);
  });

  it("falls back to the content", () => {
    expect(normalize({ content: "<p>From content</p>" }).excerpt).toBe("From content");
  });
});

describe("a description that is only a DOCTYPE", () => {
  // An HTML parser ignores a DOCTYPE inside a fragment, closed or not: such a description is empty.
  const shown = (description: string, content = "") => {
    const xml =
      `<rss xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><item>` +
      `<link>https://news.example.com/a</link><description>${description}</description>${content}` +
      `</item></channel></rss>`;
    const [item] = parseFeed(new TextEncoder().encode(xml)).items;
    const article = item === undefined ? null : normalizeItem(item, CONTEXT);
    return article && { title: article.title, excerpt: article.excerpt, content: article.content };
  };
  const CONTENT = "<content:encoded><![CDATA[<p>The story.</p>]]></content:encoded>";

  it.each([
    ["<![CDATA[ <!DOCTYPE ]]>"],
    ["<![CDATA[<!doctype html>]]>"],
    ["&lt;!DOCTYPE html PUBLIC &quot;-//W3C//DTD XHTML 1.0//EN&quot;"],
  ])("%s reads as an empty description", (description) => {
    expect(shown(description)).toEqual(shown(""));
    expect(shown(description)?.excerpt).toBe("");
    expect(shown(description, CONTENT)).toEqual(shown("", CONTENT));
  });

  it("keeps the text around a DOCTYPE", () => {
    expect(shown("<![CDATA[<!DOCTYPE html><p>Text</p>]]>")?.excerpt).toBe("Text");
  });
});

describe("title", () => {
  it.each([
    [
      "markup removed, entities decoded",
      "<b>Fish</b> &amp; chips &#8212; now",
      "Fish & chips \u2014 now",
    ],
    ["whitespace collapsed", "\n  Several \t spaced\n words  ", "Several spaced words"],
    ["double-escaped markup stays visible text", "&lt;blink&gt; tag", "<blink> tag"],
    ["an unclosed DOCTYPE alone is no title", "<!DOCTYPE", "Untitled"],
  ])("%s", (_name, title, expected) => {
    expect(normalize({ title }).title).toBe(expected);
  });

  it("uses the start of the excerpt when there is no title", () => {
    const summary = `${"word ".repeat(30)}end`;
    expect(normalize({ title: null, summary }).title).toBe(`${"word ".repeat(16).trim()}...`);
    expect(normalize({ title: "<img src=x>", summary: "Only this" }).title).toBe("Only this");
  });

  it('is "Untitled" when there is nothing to show', () => {
    expect(normalize({ title: "  " }).title).toBe("Untitled");
  });
});

describe("author", () => {
  it.each([
    ["name", "Ana Ruiz", "Ana Ruiz"],
    ["email (Name)", "ana@example.com (Ana Ruiz)", "Ana Ruiz"],
    ["Name (email)", "Ana Ruiz (ana@example.com)", "Ana Ruiz"],
    ["Name <email>", "Ana Ruiz <ana@example.com>", "Ana Ruiz"],
    ["bare email", "ana@example.com", "ana@example.com"],
    ["mailto", "mailto:ana@example.com", "ana@example.com"],
    ["markup and entities", "<b>Ana</b> &amp; Bo", "Ana & Bo"],
    ["empty", "   ", "Staff Writer"],
    ["missing", null, "Staff Writer"],
  ])("%s", (_name, input, expected) => {
    expect(authorName(input)).toBe(expected);
    expect(normalize({ author: input }).author).toBe(expected);
  });
});

describe("link", () => {
  it.each([
    ["absolute kept", "https://news.example.com/a?id=1#top", "https://news.example.com/a?id=1#top"],
    ["relative resolved against the feed", "../story", "https://news.example.com/story"],
    ["protocol-relative made https", "//cdn.example.com/x", "https://cdn.example.com/x"],
    [
      "utm_* removed, order kept",
      "https://n.example/a?b=2&utm_source=rss&a=1&utm_campaign=x",
      "https://n.example/a?b=2&a=1",
    ],
    ["fbclid and gclid removed", "https://n.example/a?fbclid=1&gclid=2", "https://n.example/a"],
    [
      "mc_* removed",
      "https://n.example/a?mc_cid=1&mc_eid=2&mc_tc=3&x=1",
      "https://n.example/a?x=1",
    ],
    [
      "lookalikes kept",
      "https://n.example/a?utmost=1&amc_cid=2",
      "https://n.example/a?utmost=1&amc_cid=2",
    ],
    ["whitespace trimmed", "  https://n.example/a \n", "https://n.example/a"],
    ["javascript: refused", "javascript:alert(1)", null],
    ["data: refused", "data:text/html,<script>alert(1)</script>", null],
    ["file: refused", "file:///etc/passwd", null],
    ["ftp: refused", "ftp://n.example/a", null],
    ["2,048 characters kept", LONG(2048), LONG(2048)],
    ["2,049 characters refused", LONG(2049), null],
    [
      "under the cap once tracking is removed",
      `${LONG(2000)}&utm_source=${"x".repeat(60)}`,
      LONG(2000),
    ],
  ])("%s", (_name, input, expected) => {
    expect(cleanLink(input, FEED_URL)).toBe(expected);
  });

  it("resolves against the item's xml:base before the context base", () => {
    expect(normalize({ link: "story", base: "https://other.example/dir/" }).link).toBe(
      "https://other.example/dir/story",
    );
    expect(normalize({ link: "story", base: "/rel/" }).link).toBe(
      "https://news.example.com/rel/story",
    );
  });

  it("falls back to a guid that is an http(s) URL", () => {
    expect(
      normalize({ link: "javascript:alert(1)", guid: "https://n.example/g?utm_medium=x" }).link,
    ).toBe("https://n.example/g");
  });

  it("drops an item whose link and guid are too long to keep", () => {
    const item = raw({ link: LONG(9000), guid: LONG(9001) });
    expect(normalizeItem(item, CONTEXT)).toBeNull();
    expect(normalize({ link: LONG(9000), guid: "https://n.example/g" }).link).toBe(
      "https://n.example/g",
    );
  });

  it("drops an item with no usable link", () => {
    expect(normalizeItem(raw({ link: null, guid: "tag:x,2025:1" }), CONTEXT)).toBeNull();
    expect(normalizeItem(raw({ link: "javascript:alert(1)", guid: null }), CONTEXT)).toBeNull();
    expect(normalizeItem(raw({ link: null, title: null, guid: null }), CONTEXT)).toBeNull();
  });
});

describe("id", () => {
  it("is the title slug and 16 hex digits of sha256(feed URL + guid)", () => {
    expect(normalize({ guid: "abc-1", title: "Port of San Diego: Ships Arrive!" }).id).toBe(
      "port-of-san-diego-ships-arrive-68499f98d5edee75",
    );
  });

  it("is the same for the same item", () => {
    const a = normalize({ guid: "abc-1", summary: "one" });
    const b = normalize({ guid: "abc-1", summary: "changed", date: "2025-06-01" });
    expect(a.id).toBe(b.id);
  });

  it("differs for another guid or another feed", () => {
    const a = normalize({ guid: "abc-1" });
    expect(normalize({ guid: "abc-2" }).id).not.toBe(a.id);
    expect(
      normalize({ guid: "abc-1" }, { ...CONTEXT, feedUrl: "https://other.example/f" }).id,
    ).not.toBe(a.id);
  });

  it("uses the cleaned link when there is no guid", () => {
    const a = normalize({ guid: null, link: "https://n.example/a?utm_source=x" });
    const b = normalize({ guid: null, link: "https://n.example/a" });
    expect(a.id).toBe(b.id);
  });

  it("is URL-safe and at most ~77 characters", () => {
    const id = normalize({ title: `Ünïcödé — ${"long ".repeat(40)}`, guid: "g" }).id;
    expect(id).toMatch(/^[a-z0-9-]+$/);
    expect(id.length).toBeLessThanOrEqual(77);
    expect(normalize({ title: "東京 ニュース", guid: "g" }).id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("image", () => {
  it.each<[string, Partial<RawItem>, string | null]>([
    [
      "first of the item's images",
      { images: ["https://i.example/1.jpg", "https://i.example/2.jpg"] },
      "https://i.example/1.jpg",
    ],
    ["relative image resolved", { images: ["/img/a.jpg"] }, "https://news.example.com/img/a.jpg"],
    ["protocol-relative made https", { images: ["//i.example/a.jpg"] }, "https://i.example/a.jpg"],
    [
      "unsafe candidates skipped",
      {
        images: [
          "javascript:alert(1)",
          "data:image/png;base64,AA",
          "file:///etc/passwd",
          "https://i.example/ok.jpg",
        ],
      },
      "https://i.example/ok.jpg",
    ],
    [
      "first <img> in the content",
      { content: '<p>x</p><img src="/c.jpg"><img src="/d.jpg">' },
      "https://news.example.com/c.jpg",
    ],
    [
      "then the summary",
      { summary: "<img alt='a' src='https://i.example/s.png'>" },
      "https://i.example/s.png",
    ],
    ["unquoted src", { summary: "<img src=https://i.example/u.png>" }, "https://i.example/u.png"],
    [
      "tracking pixels skipped",
      {
        content:
          '<img src="https://t.example/p.gif" width="1" height="1"><img src="https://i.example/real.jpg">',
      },
      "https://i.example/real.jpg",
    ],
    ["none", { summary: "no image" }, null],
    // One address of thousands of characters once stopped every picture pass (issue 32).
    [
      "an address over 2,048 characters skipped",
      { images: [LONG(9000), "https://i.example/ok.jpg"] },
      "https://i.example/ok.jpg",
    ],
    ["an address of 2,048 characters kept", { images: [LONG(2048)] }, LONG(2048)],
    ["only a long address: none", { images: [LONG(2049)] }, null],
    [
      "a long <img> in the content skipped",
      { content: `<img src="${LONG(9000)}"><img src="/c.jpg">` },
      "https://news.example.com/c.jpg",
    ],
  ])("%s", (_name, fields, expected) => {
    expect(normalize(fields).image).toBe(expected);
  });

  it("leaves a picture with a long address out of the body", () => {
    const { content } = normalize({ content: `<p>Text</p><img src="${LONG(9000)}" alt="x">` });
    expect(content).not.toContain("<img");
    expect(content).toContain("<p>Text</p>");
  });
});

describe("content", () => {
  it("sanitises the richer body and links to the article", () => {
    const article = normalize({
      link: "https://news.example.com/a?x=1&y=2",
      summary: "Short teaser.",
      content: '<p onclick="x()">The full <a href="/more">story</a>.</p><script>alert(1)</script>',
    });
    expect(article.content).toBe(
      '<p>The full <a href="https://news.example.com/more" target="_blank" rel="noopener noreferrer">story</a>.</p>' +
        READ_MORE("https://news.example.com/a?x=1&amp;y=2"),
    );
  });

  it("uses the summary when it is richer than the content", () => {
    expect(
      normalize({ summary: "<p>A longer summary here</p>", content: "<p>Short</p>" }).content,
    ).toBe(`<p>A longer summary here</p>${READ_MORE("https://news.example.com/a")}`);
  });

  it("turns plain text into paragraphs", () => {
    expect(normalize({ summary: "First.\n\nSecond & last." }).content).toBe(
      `<p>First.</p><p>Second &amp; last.</p>${READ_MORE("https://news.example.com/a")}`,
    );
  });

  it("is the escaped excerpt and the link when the body sanitises to nothing", () => {
    expect(normalize({ summary: "<script>alert(1)</script>" }).content).toBe(
      READ_MORE("https://news.example.com/a"),
    );
    expect(normalize({ summary: null, content: null }).content).toBe(
      READ_MORE("https://news.example.com/a"),
    );
  });
});

describe("normalizeItem: hostile items", () => {
  const feed = parseFeed(readFileSync(path.join(import.meta.dirname, "fixtures", "hostile.xml")));
  const item = feed.items[0];
  if (item === undefined) throw new Error("hostile fixture has no item");
  const article = normalizeItem(item, CONTEXT);
  if (article === null) throw new Error("hostile item was dropped");

  it("has the exact safe values", () => {
    expect({ ...article, content: undefined, date: undefined }).toEqual({
      id: "breaking-news-c1191953f236093e",
      guid: "https://hostile.example/story-1",
      title: "Breaking news",
      excerpt: "Text one two three four ipt>alert(12) css bidi",
      content: undefined,
      image: "https://cdn.hostile.example/enclosure.jpg",
      category: "local-news",
      date: undefined,
      author: "Mallory",
      link: "https://hostile.example/story-1",
    });
    expect(article.content).toBe(
      "<p>Text <span>one</span> <span>two</span> <span>three</span> <span>four</span></p>" +
        'ipt&gt;alert(12)css<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">bidi</a>' +
        READ_MORE("https://hostile.example/story-1"),
    );
  });

  const everything = JSON.stringify(article);
  it.each([
    "<script",
    "<iframe",
    "<svg",
    "<math",
    "<form",
    "<object",
    "<style",
    "onclick",
    "onerror",
    "onload",
    "javascript:",
    "vbscript:",
    "data:",
    "file:",
    "expression(",
    "style=",
    "\u202E",
    "\u200B",
  ])("contains no %j anywhere", (needle) => {
    expect(everything.toLowerCase()).not.toContain(needle.toLowerCase());
  });

  it.each([
    ["javascript: link", { link: "javascript:alert(1)//https://x" }],
    ["obfuscated javascript: link", { link: " jav&#x09;ascript:alert(1)" }],
    ["vbscript: link", { link: "VBScript:msgbox(1)" }],
    ["data: link", { link: "data:text/html,hi" }],
  ])("drops an item whose only link is a %s", (_name, fields) => {
    expect(normalizeItem(raw(fields), CONTEXT)).toBeNull();
  });

  it.each([
    [
      "iframe in the title",
      { title: '<iframe src="https://evil.example/"></iframe>Headline' },
      "Headline",
    ],
    ["script in the title", { title: "<script>alert(1)</script>Headline" }, "Headline"],
    ["svg in the title", { title: "<svg onload=alert(1)>x</svg>Headline" }, "Headline"],
    ["bidi override in the title", { title: "Head\u202Eline" }, "Headline"],
  ])("cleans %s", (_name, fields, expected) => {
    expect(normalize(fields).title).toBe(expected);
  });
});
