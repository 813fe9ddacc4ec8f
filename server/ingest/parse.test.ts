import { readFileSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { FeedParseError, parseFeed } from "./parse";
import type { ParsedFeed, RawItem } from "./types";

const FIXTURES = path.join(import.meta.dirname, "fixtures");

function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

function parseFixture(name: string, contentType?: string): ParsedFeed {
  return parseFeed(fixture(name), { contentType });
}

function parseText(xml: string): ParsedFeed {
  return parseFeed(new TextEncoder().encode(xml));
}

function firstItem(feed: ParsedFeed): RawItem {
  const item = feed.items[0];
  if (item === undefined) throw new Error("feed has no items");
  return item;
}

function rssItem(inner: string, namespaces = ""): RawItem {
  return firstItem(
    parseText(`<rss version="2.0"${namespaces}><channel><item>${inner}</item></channel></rss>`),
  );
}

function parseError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof FeedParseError) return error.message;
    throw error;
  }
  throw new Error("expected a FeedParseError");
}

describe("parseFeed: RSS 2.0", () => {
  const feed = parseFixture("rss2.xml");

  it("reads the channel", () => {
    expect({ ...feed, items: feed.items.length }).toEqual({
      format: "rss",
      title: "Sample Harbor News & Notes",
      link: "https://news.example.com/",
      ttlMinutes: 30,
      items: 4,
      damaged: false,
    });
  });

  it("reads every field of an item, keeping HTML as HTML", () => {
    expect(feed.items[0]).toEqual({
      guid: "harbor-2025-06-pier",
      title: "Port of San Diego opens <em>new</em> pier",
      link: "https://news.example.com/2025/06/pier?utm_source=rss&utm_medium=feed&id=7&fbclid=abc",
      summary: "The pier\u2019s first ships arrive \u2014 on time\u00a0today.",
      content:
        '<p>The pier&#8217;s first <a href="/ships">ships</a> arrive this morning, watched by crowds along the Embarcadero.</p><script>alert(1)</script><img src="/img/pier.jpg" onerror="alert(2)">',
      date: "Tue, 10 Jun 2025 08:30:00 PDT",
      author: "editor@example.com (The Editor)",
      images: ["https://cdn.example.com/pier-large.jpg", "https://cdn.example.com/pier-small.jpg"],
      base: "https://news.example.com/",
    });
  });

  it("prefers a named author over a bare email, and keeps relative links for normalize", () => {
    expect(feed.items[1]).toMatchObject({
      link: "/2025/06/relative",
      author: "Lee Park",
      images: ["https://cdn.example.com/thumb.jpg"],
    });
  });

  it("uses a permalink guid as the link when there is no link", () => {
    expect(feed.items[2]).toMatchObject({
      guid: "https://news.example.com/2025/06/guid-only",
      link: "https://news.example.com/2025/06/guid-only",
      summary: "<p>Escaped <b>markup</b> in the description.</p>",
      images: ["https://cdn.example.com/photo.png"],
    });
    expect(feed.items[3]).toMatchObject({ guid: "nolink-1", link: null });
  });

  it("does not take a guid marked isPermaLink=false as the link", () => {
    const item = rssItem(`<guid isPermaLink="false">https://x.example/1</guid><title>t</title>`);
    expect(item.link).toBeNull();
  });
});

describe("parseFeed: RSS 1.0 (RDF)", () => {
  const feed = parseFixture("rss1.rdf");

  it("reads items that are siblings of the channel", () => {
    expect(feed.format).toBe("rdf");
    expect(feed.title).toBe("City Council Minutes");
    expect(feed.items).toEqual([
      {
        guid: "https://council.example.org/minutes/42",
        title: "Budget vote scheduled",
        link: "https://council.example.org/minutes/42",
        summary: "The council will vote on the 2026 budget.",
        content: null,
        date: "2025-05-20T18:00:00-07:00",
        author: "Clerk's Office",
        images: [],
        base: "https://council.example.org/",
      },
      {
        guid: "https://council.example.org/minutes/41",
        title: "Agenda posted",
        link: "https://council.example.org/minutes/41",
        summary: null,
        content: null,
        date: "2025-05-13",
        author: null,
        images: [],
        base: "https://council.example.org/",
      },
    ]);
  });
});

describe("parseFeed: Atom", () => {
  const feed = parseFixture("atom.xml");

  it("reads the feed and its entries", () => {
    expect({ ...feed, items: feed.items.length }).toEqual({
      format: "atom",
      title: "Tide & Time",
      link: "https://blog.example.net/",
      ttlMinutes: null,
      items: 2,
      damaged: false,
    });
  });

  it("reads html titles, xhtml content, the alternate html link and xml:base", () => {
    expect(feed.items[0]).toEqual({
      guid: "tag:blog.example.net,2025:surf",
      title: "<b>Surf</b> report &amp; forecast",
      link: "surf-report",
      summary: "Waves of 3\u20134 ft.",
      content:
        '<p>Waves of <em>3–4 ft</em> at <a href="/beaches/ob">Ocean Beach</a>.</p><img src="waves.jpg" alt="Waves" />',
      date: "2025-06-01T06:00:00-07:00",
      author: "Feed Author",
      images: ["https://cdn.example.net/surf.webp"],
      base: "https://blog.example.net/posts/",
    });
  });

  it("escapes a text title so that it stays text, and inherits the feed author", () => {
    expect(feed.items[1]).toMatchObject({
      title: "Plain &lt;text&gt; title",
      content: "<p>Inherited author.</p>",
      author: "Feed Author",
      images: ["https://cdn.example.net/clip-thumb.jpg"],
    });
  });

  it("uses an author's email when the author has no name", () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><author><email>a@b.example</email></author></entry></feed>`;
    expect(firstItem(parseText(xml)).author).toBe("a@b.example");
  });

  it("reads Atom 0.3: escaped and base64 modes, issued dates", () => {
    expect(parseFixture("atom03.xml").items[0]).toEqual({
      guid: "tag:old.example.org,2004:fish",
      title: "Fish &amp; Chips",
      link: "http://old.example.org/fish",
      summary: null,
      content: "<p>Base64 <b>body</b></p>",
      date: "2004-01-01T19:48:21Z",
      author: "Old Author",
      images: [],
      base: null,
    });
  });
});

describe("parseFeed: Atom constructs by type", () => {
  const entry = (inner: string) =>
    firstItem(
      parseText(
        `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id>${inner}</entry></feed>`,
      ),
    );
  const BASE64 = Buffer.from("Hello <b>world</b>").toString("base64");
  it.each<[string, string, "title" | "summary" | "content", string]>([
    ["a title of empty type as text", `<title type="">Hello world</title>`, "title", "Hello world"],
    [
      "a title of unknown type as text",
      `<title type="foo">Hello world</title>`,
      "title",
      "Hello world",
    ],
    [
      "a title of a media type as text, never base64",
      `<title type="application/octet-stream">${BASE64}</title>`,
      "title",
      BASE64,
    ],
    [
      "a summary of empty type as text",
      `<summary type="">Hello world</summary>`,
      "summary",
      "Hello world",
    ],
    [
      "a summary of unknown type as text",
      `<summary type="text/x-unknown">a &lt;b&gt;</summary>`,
      "summary",
      "a &lt;b&gt;",
    ],
    [
      "content of empty type as text",
      `<content type="">Hello world</content>`,
      "content",
      "Hello world",
    ],
    [
      "content of unknown type as text",
      `<content type="weird">Hello world</content>`,
      "content",
      "Hello world",
    ],
    [
      "content of a binary media type as base64",
      `<content type="application/octet-stream">${BASE64}</content>`,
      "content",
      "Hello <b>world</b>",
    ],
    [
      "content of an XML media type as markup",
      `<content type="application/xml"><p>x</p></content>`,
      "content",
      "<p>x</p>",
    ],
  ])("%s", (_name, inner, field, expected) => {
    expect(entry(inner)[field]).toBe(expected);
  });

  it("reads a feed title of empty type as text", () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><title type="">Hello world</title></feed>`;
    expect(parseText(xml).title).toBe("Hello world");
  });
});

describe("parseFeed: image carriers", () => {
  const media = ` xmlns:media="http://search.yahoo.com/mrss/"`;
  const itunes = ` xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"`;
  const A = "https://i.example/a";
  it.each([
    ["media:content medium=image", `<media:content url="${A}" medium="image"/>`, media, A],
    ["media:content image type", `<media:content url="${A}" type="image/jpeg"/>`, media, A],
    ["media:content image URL", `<media:content url="${A}.JPG?w=1"/>`, media, `${A}.JPG?w=1`],
    [
      "media:group child",
      `<media:group><media:content url="${A}" medium="image"/></media:group>`,
      media,
      A,
    ],
    ["media:thumbnail", `<media:thumbnail url="${A}"/>`, media, A],
    [
      "media:thumbnail inside media:content",
      `<media:content url="https://v.example/v.mp4" type="video/mp4"><media:thumbnail url="${A}"/></media:content>`,
      media,
      A,
    ],
    ["undeclared media prefix", `<media:thumbnail url="${A}"/>`, "", A],
    ["enclosure image/*", `<enclosure url="${A}" type="image/png" length="1"/>`, "", A],
    ["enclosure without type", `<enclosure url="${A}.png" length="1"/>`, "", `${A}.png`],
    ["itunes:image", `<itunes:image href="${A}"/>`, itunes, A],
    ["image element", `<image>${A}</image>`, "", A],
    ["image element with url", `<image><url>${A}</url></image>`, "", A],
  ])("%s", (_name, xml, namespaces, expected) => {
    expect(rssItem(`<title>t</title>${xml}`, namespaces).images).toEqual([expected]);
  });
  it.each([
    ["video media:content", `<media:content url="https://v.example/a.mp4" type="video/mp4"/>`],
    ["audio enclosure", `<enclosure url="https://a.example/a.mp3" type="audio/mpeg"/>`],
    ["image element without a URL", `<image><link>https://item.example/</link></image>`],
  ])("ignores %s", (_name, xml) => {
    expect(rssItem(`<title>t</title>${xml}`, media).images).toEqual([]);
  });

  it("orders candidates: media:content by size, then thumbnails, enclosures, itunes:image", () => {
    const item = rssItem(
      `<title>t</title><itunes:image href="https://i.example/itunes"/><enclosure url="https://i.example/enc" type="image/jpeg"/>` +
        `<media:thumbnail url="https://i.example/thumb"/><media:content url="https://i.example/small" medium="image" width="100"/>` +
        `<media:content url="https://i.example/big" medium="image" width="900"/>`,
      media + itunes,
    );
    expect(item.images).toEqual([
      "https://i.example/big",
      "https://i.example/small",
      "https://i.example/thumb",
      "https://i.example/enc",
      "https://i.example/itunes",
    ]);
  });
});

describe("parseFeed: fields", () => {
  it.each([
    [
      "pubDate",
      `<pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate>`,
      "Thu, 01 Jan 2004 19:48:21 GMT",
    ],
    ["dc:date", `<dc:date>2003-12-31T10:14:55Z</dc:date>`, "2003-12-31T10:14:55Z"],
    ["dcterms:modified", `<dcterms:modified>2003-12-31</dcterms:modified>`, "2003-12-31"],
    [
      "pubDate before dc:date",
      `<dc:date>2003-12-31</dc:date><pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate>`,
      "Thu, 01 Jan 2004 19:48:21 GMT",
    ],
    [
      "pubDate in CDATA",
      `<pubDate><![CDATA[ Wed, 29 May 2019 10:16:00 GMT ]]></pubDate>`,
      "Wed, 29 May 2019 10:16:00 GMT",
    ],
  ])("date from %s", (_name, xml, expected) => {
    expect(rssItem(`<title>t</title>${xml}`).date).toBe(expected);
  });

  it.each([
    [
      "author",
      `<author>a@b.example (Ann)</author><dc:creator>Bo</dc:creator>`,
      "a@b.example (Ann)",
    ],
    [
      "dc:creator over a bare email",
      `<author>a@b.example</author><dc:creator>Bo</dc:creator>`,
      "Bo",
    ],
    ["several dc:creator", `<dc:creator>Bo</dc:creator><dc:creator>Cy</dc:creator>`, "Bo, Cy"],
    ["itunes:author", `<itunes:author>Di</itunes:author>`, "Di"],
    ["a bare email alone", `<author>a@b.example</author>`, "a@b.example"],
  ])("author: %s", (_name, xml, expected) => {
    expect(rssItem(`<title>t</title>${xml}`).author).toBe(expected);
  });

  it("prefers feedburner:origLink over the redirecting link", () => {
    const item = rssItem(
      `<title>t</title><link>http://feedproxy.google.com/~r/x/1</link><feedburner:origLink>https://site.example/1</feedburner:origLink>`,
      ` xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"`,
    );
    expect(item.link).toBe("https://site.example/1");
  });

  it("decodes numeric, hex (x and X) and HTML named entities, leaves unknown ones", () => {
    const item = rssItem(
      `<title>&#65;&#x42;&#X43; &amp; &mdash;&rsquo;&nbsp;&eacute; &bogus;</title>`,
    );
    expect(item.title).toBe("ABC & \u2014\u2019\u00a0\u00e9 &bogus;");
  });

  it("keeps CDATA as written", () => {
    expect(rssItem(`<description><![CDATA[<p>a &amp; b</p>]]></description>`).summary).toBe(
      "<p>a &amp; b</p>",
    );
  });

  it("takes naked markup inside a description as HTML", () => {
    expect(rssItem(`<description><p>Example <b>bold</b></p></description>`).summary).toBe(
      "<p>Example <b>bold</b></p>",
    );
  });

  it("drops empty items", () => {
    expect(
      parseText(`<rss><channel><item/><item><title>x</title></item></channel></rss>`).items,
    ).toHaveLength(1);
  });
});

describe("parseFeed: encodings", () => {
  it.each([
    ["iso-8859-1.xml", undefined, "Café São Paulo à côté", "Ünïcödé ß ñ ©"],
    [
      "windows-1252.xml",
      undefined,
      "\u201cSmart quotes\u201d \u2013 and \u2014 dashes\u2026",
      "It\u2019s \u20ac5 \u2022 really",
    ],
    ["utf-16le-bom.xml", undefined, "Ünïcödé in UTF-16 ✓", "Zürich 東京"],
    ["utf-16be-bom.xml", undefined, "Big-endian ✓", "Zürich 東京"],
    ["utf-8-bom.xml", undefined, "BOM first ✓", "naïve"],
    ["euc-kr.xml", undefined, "서울 뉴스", "년"],
    ["undeclared-latin1.xml", undefined, "Sem declaração", "Notícias de São Paulo"],
    [
      "http-charset.xml",
      "text/xml; charset=windows-1252",
      "Price: £5 \u201cdeal\u201d",
      "no declaration, charset from HTTP",
    ],
    ["mislabelled-utf8.xml", undefined, "Déjà vu – UTF-8 bytes", "declared Latin-1"],
  ])("%s", (file, contentType, title, summary) => {
    const item = firstItem(parseFixture(file, contentType));
    expect([item.title, item.summary]).toEqual([title, summary]);
  });

  it("lets the XML declaration win over the HTTP charset", () => {
    const bytes = iconv.encode(
      `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Café</title></item></channel></rss>`,
      "latin1",
    );
    expect(firstItem(parseFeed(bytes, { contentType: "text/xml; charset=utf-8" })).title).toBe(
      "Café",
    );
  });

  it("lets a byte-order mark win over the XML declaration", () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Café</title></item></channel></rss>`,
      ),
    ]);
    expect(firstItem(parseFeed(body)).title).toBe("Café");
  });

  it("reads C1 control characters as windows-1252 punctuation", () => {
    expect(rssItem(`<title>don\u0092t</title>`).title).toBe("don\u2019t");
  });
});

describe("parseFeed: hostile and broken documents", () => {
  // Refused before any entity is read, so nothing is expanded and the cost is one scan of the text.
  it.each(["billion-laughs.xml", "xxe.xml"])("refuses %s and expands nothing", (file) => {
    const message = parseError(() => parseFixture(file));
    expect(message).toBe("Refused: the feed declares a DTD with entities");
  });

  it("never reads a local file for an external entity, even without a DOCTYPE", () => {
    const item = rssItem(`<title>&xxe;</title><description>&xxe;</description>`);
    expect(item.title).toBe("&xxe;");
    expect(JSON.stringify(item)).not.toContain("root:");
  });

  it("ignores a DTD referenced by URL (never fetched) and still reads HTML entities", () => {
    const feed = parseFixture("external-dtd.xml");
    expect(firstItem(feed).title).toBe("Café opens");
  });

  it("refuses an HTML page", () => {
    expect(parseError(() => parseFixture("html-page.html"))).toBe(
      "Not a feed: the document is HTML",
    );
    expect(parseError(() => parseText("<html><body>hi</body></html>"))).toBe(
      "Not a feed: the document is HTML",
    );
  });

  it.each([
    ["", "Not a feed: the document is empty"],
    ['{"items": []}', "Not a feed: the document is JSON"],
    ["just some text", "Not a feed: the document is not XML"],
    ["<?xml version='1.0'?><svg><g/></svg>", "Not a feed: the root element is <svg>"],
    [
      "<?xml version='1.0'?><rss><channel><item><title>x</ti",
      "Malformed XML at line 1: Closing tag 'ti' doesn't have proper closing.",
    ],
  ])("explains %j", (xml, message) => {
    expect(parseError(() => parseText(xml))).toBe(message);
  });

  it("reads an empty channel as no items", () => {
    expect(parseFixture("empty-channel.xml").items).toEqual([]);
  });

  it("yields the complete items of a truncated feed", () => {
    const feed = parseFixture("truncated.xml");
    expect(feed.items.map((i) => i.title)).toEqual(["First complete item", "Second complete item"]);
    expect(feed.damaged).toBe(true);
  });

  it.each([
    [
      "RSS",
      `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
<item><link>https://cut.example.com/1</link><title>One</title><description>First</description><pubDate>Mon, 02 Jun 2025 10:00:00 GMT</pubDate></item>
<item><link>https://cut.example.com/2</link><guid>https://cut.example.com/2</guid><title>Two</title><description><![CDATA[<p>Second</p>]]></description><pubDate>Mon, 02 Jun 2025 11:00:00 GMT</pubDate></item>
</channel></rss>`,
    ],
    [
      "Atom",
      `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><link href="https://cut.example.com/1"/><title>One</title><updated>2025-06-02T10:00:00Z</updated><summary>First</summary></entry>
<entry><id>urn:two</id><link href="https://cut.example.com/2"/><title>Two</title><updated>2025-06-02T11:00:00Z</updated><summary>Second</summary><content type="html">&lt;p&gt;Second, longer&lt;/p&gt;</content></entry>
</feed>`,
    ],
  ])("never reads the %s item a body is cut off in, wherever the cut", (_format, xml) => {
    // A cut-off item read with its later fields missing would overwrite a stored article with blanks.
    const complete = parseText(xml).items;
    for (let cut = 1; cut < xml.length; cut++) {
      let items: RawItem[];
      try {
        items = parseText(xml.slice(0, cut)).items;
      } catch (error) {
        if (error instanceof FeedParseError) continue;
        throw error;
      }
      expect(complete.slice(0, items.length), `cut at ${cut}`).toEqual(items);
    }
  });

  it("keeps stray ampersands as written and survives an unclosed root", () => {
    const feed = parseFixture("bad-ampersands.xml");
    expect(feed.title).toBe("Fish & Chips Weekly");
    expect(firstItem(feed)).toMatchObject({
      title: "Salt & vinegar & more &copy 2025",
      link: "https://amp.example.com/story?a=1&b=2&c",
      summary: "AT&T buys T&T; see ?x=1&y=2 &unknown; \u00a9",
    });
  });

  it("skips junk before the feed", () => {
    const feed = parseText(
      `Warning: something\n<?xml version="1.0"?><rss><channel><title>ok</title></channel></rss>`,
    );
    expect(feed.title).toBe("ok");
  });

  it("finishes deeply nested input with a result or a parse error", () => {
    const xml = `<rss><channel><item><title>t</title>${"<a>".repeat(100_000)}</item></channel></rss>`;
    try {
      parseText(xml);
    } catch (error) {
      expect(error).toBeInstanceOf(FeedParseError);
    }
  });
});
