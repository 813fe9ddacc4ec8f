import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { urlSet, xmlText } from "./xml";

describe("xmlText", () => {
  it("leaves text that needs nothing as it is", () => {
    const address = "https://example.org/article/harbor-board-votes-2151f94fc6b73b1c";
    expect(xmlText(address)).toBe(address);
    expect(xmlText("Café — 東京 🌊")).toBe("Café — 東京 🌊");
  });

  it("escapes markup and both quotes", () => {
    expect(xmlText(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;",
    );
    expect(xmlText("&amp;")).toBe("&amp;amp;");
  });

  it("drops what XML 1.0 cannot hold, and keeps tabs and line ends", () => {
    expect(xmlText("a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uD800g")).toBe("abcdefg");
    expect(xmlText("a\tb\nc\rd")).toBe("a\tb\nc\rd");
    expect(xmlText("\u0001<\u0002")).toBe("&lt;");
  });
});

describe("urlSet", () => {
  it("reads back as the addresses and dates it was given", () => {
    const lastmod = new Date("2026-11-02T03:04:05.000Z");
    const xml = urlSet("https://example.org", [
      { path: "/article/a-1", lastmod },
      { path: "/search?q=a&b=<c>", lastmod: null },
    ]);
    const parsed = new XMLParser().parse(xml) as {
      urlset: { url: { loc: string; lastmod?: string }[] };
    };
    expect(parsed.urlset.url).toEqual([
      { loc: "https://example.org/article/a-1", lastmod: "2026-11-02T03:04:05.000Z" },
      { loc: "https://example.org/search?q=a&b=<c>" },
    ]);
  });
});
