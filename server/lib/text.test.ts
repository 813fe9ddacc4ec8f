import { decodeHTML, decodeHTMLAttribute, decodeHTMLStrict } from "entities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cleanText,
  decodeWith,
  removeTrackingParams,
  safeHttpUrl,
  slugify,
  truncateAtWord,
} from "./text";

describe("truncateAtWord", () => {
  it.each([
    ["shorter than the limit", "one two", 10, "one two"],
    ["exactly the limit", "one two", 7, "one two"],
    ["cut before the word that crosses", "one two three", 9, "one two..."],
    ["cut at a space at the limit", "one two three", 7, "one two..."],
    ["a single long word", "abcdefghij", 4, "abcd..."],
    ["trailing comma dropped", "one, two", 5, "one..."],
  ])("%s", (_name, text, max, expected) => {
    expect(truncateAtWord(text, max)).toBe(expected);
  });
});

describe("slugify", () => {
  it.each([
    ["Port of San Diego: Ships Arrive!", "port-of-san-diego-ships-arrive"],
    ["Café São Paulo à côté", "cafe-sao-paulo-a-cote"],
    ["Straße & Ærø — Łódź", "strasse-aero-lodz"],
    ["Don’t stop", "dont-stop"],
    ["東京", ""],
    ["  --  ", ""],
  ])("%j", (text, expected) => {
    expect(slugify(text)).toBe(expected);
  });

  it("cuts long slugs at a hyphen, at most 60 characters", () => {
    const slug = slugify("word ".repeat(30));
    expect(slug).toBe(Array.from({ length: 12 }, () => "word").join("-"));
    expect(slug.length).toBeLessThanOrEqual(60);
  });
});

describe("safeHttpUrl", () => {
  const base = "https://site.example/a/b.xml";
  it.each([
    ["https://x.example/p", "https://x.example/p"],
    ["HTTP://X.EXAMPLE/P", "http://x.example/P"],
    ["/root", "https://site.example/root"],
    ["rel", "https://site.example/a/rel"],
    ["//cdn.example/x", "https://cdn.example/x"],
    ["?q=1", "https://site.example/a/b.xml?q=1"],
    ["https://x.example/a b", "https://x.example/a%20b"],
    [" \u00a0https://x.example/\n", "https://x.example/"],
    ["https://x.exa\u202Emple/\u200Bp", "https://x.example/p"],
    ["java\u0000script:alert(1)", null],
    ["&#104;ttps://x.example/", "https://x.example/"],
    ["javascript:alert(1)", null],
    ["\u0000javascript:alert(1)", null],
    ["java\tscript:alert(1)", null],
    ["jav&#x09;ascript:alert(1)", null],
    ["vbscript:x", null],
    ["data:image/png;base64,AA", null],
    ["file:///etc/passwd", null],
    ["mailto:a@b.example", null],
    ["http://", null],
    ["", null],
  ])("%j", (input, expected) => {
    expect(safeHttpUrl(input, base)).toBe(expected);
  });

  it("needs an absolute URL when there is no base", () => {
    expect(safeHttpUrl("/root")).toBeNull();
    expect(safeHttpUrl("https://x.example")).toBe("https://x.example/");
  });
});

describe("removeTrackingParams", () => {
  it.each([
    ["https://x.example/?utm_source=a&UTM_Medium=b", "https://x.example/"],
    ["https://x.example/p?id=1&fbclid=z#frag", "https://x.example/p?id=1#frag"],
    ["https://x.example/p?a=%20b&gclid=1&c", "https://x.example/p?a=%20b&c"],
    ["https://x.example/p?mc_cid=1&mc_eid=2&mc_anything=3", "https://x.example/p"],
    ["https://x.example/p?keep=utm_source", "https://x.example/p?keep=utm_source"],
  ])("%s", (input, expected) => {
    expect(removeTrackingParams(input)).toBe(expected);
  });
});

describe("cleanText", () => {
  it("removes controls, bidi overrides and zero-width spaces but keeps joiners", () => {
    expect(cleanText(" a\u0007b\u202Ec\u200Bd \u200De\u200Cf\n ")).toBe("abcd \u200De\u200Cf");
  });
});

describe("character classes, against their definitions", () => {
  const controls = (c: number) =>
    (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f);
  const bidi = (c: number) => (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
  const invisible = (c: number) => c === 0x200b || c === 0x2060 || c === 0xfeff;

  it("cleanText removes exactly the control, bidi and invisible characters", () => {
    for (let c = 0; c <= 0xffff; c++) {
      const char = String.fromCharCode(c);
      const dropped = controls(c) || bidi(c) || invisible(c);
      const expected = dropped ? "ab" : /\s/.test(char) ? "a b" : `a${char}b`;
      if (cleanText(`a${char}b`) !== expected)
        expect([c, cleanText(`a${char}b`)]).toEqual([c, expected]);
    }
  });

  it("safeHttpUrl ignores exactly the characters that disguise URLs", () => {
    const junk = (c: number) =>
      c < 0x20 ||
      controls(c) ||
      bidi(c) ||
      invisible(c) ||
      c === 0xa0 ||
      c === 0xad ||
      (c >= 0x200c && c <= 0x200f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x2061 && c <= 0x2064);
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const char = String.fromCharCode(c);
      const url = safeHttpUrl(`https://x.example/a${char}b`);
      const clean = url === "https://x.example/ab";
      if (clean !== junk(c))
        expect([c, url]).toEqual([c, junk(c) ? "https://x.example/ab" : "kept"]);
    }
  });

  it("cleanText collapses every kind of whitespace run", () => {
    expect(cleanText(" a\u00a0\u00a0b\n\nc \t d\u2003e\u3000 ")).toBe("a b c d e");
  });

  it("truncateAtWord cuts at any kind of whitespace", () => {
    expect(truncateAtWord("one\u00a0two\u2003three four", 12)).toBe("one\u00a0two...");
    expect(truncateAtWord("abcdef ghijkl", 9)).toBe("abcdef...");
  });

  it("slugify reads ASCII and other text alike", () => {
    expect(slugify("Cafe au lait")).toBe("cafe-au-lait");
    expect(slugify("Café au lait")).toBe("cafe-au-lait");
    expect(slugify("It's 100% \u2019true\u2019")).toBe("its-100-true");
  });
});

describe("decodeWith", () => {
  const piece = fc.constantFrom(
    "&",
    ";",
    "#",
    "x",
    "X",
    "amp",
    "lt",
    "quot",
    "nbsp",
    "rsquo",
    "mdash",
    "constructor",
    "toString",
    "not",
    "notin",
    "copy",
    "0",
    "65",
    "128",
    "150",
    "x41",
    "xD800",
    "x110000",
    "99999999",
    "a",
    " ",
    "=",
    "é",
  );

  it("gives what the decoder gives, in every mode", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join("");
        for (const decode of [decodeHTML, decodeHTMLAttribute, decodeHTMLStrict]) {
          expect(decodeWith(text, decode)).toBe(decode(text));
        }
      }),
      { numRuns: 5000, seed: 20261122 },
    );
  });
});
