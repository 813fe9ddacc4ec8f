import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeFeedBytes } from "./encoding";

const declared = (encoding: string, text: string) =>
  `<?xml version="1.0" encoding="${encoding}"?><t>${text}</t>`;
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))),
  );
const BOM = [0xef, 0xbb, 0xbf];

describe("decodeFeedBytes", () => {
  it.each<[string, Uint8Array, string | null, string]>([
    ["UTF-8 by default", bytes("<t>Café ✓</t>"), null, "<t>Café ✓</t>"],
    ["a UTF-8 byte-order mark, dropped", bytes(BOM, "<t>é</t>"), null, "<t>é</t>"],
    [
      "the byte-order mark over the declaration",
      bytes(BOM, declared("ISO-8859-1", "é")),
      null,
      declared("ISO-8859-1", "é"),
    ],
    [
      "UTF-16LE with a byte-order mark",
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode("<t>東京</t>", "utf-16le")]),
      null,
      "<t>東京</t>",
    ],
    [
      "UTF-16BE with a byte-order mark",
      Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode("<t>東京</t>", "utf-16be")]),
      null,
      "<t>東京</t>",
    ],
    [
      "UTF-16LE without a byte-order mark",
      iconv.encode(declared("UTF-16", "Zürich"), "utf-16le"),
      null,
      declared("UTF-16", "Zürich"),
    ],
    [
      "the declared encoding",
      iconv.encode(declared("EUC-KR", "서울"), "euc-kr"),
      null,
      declared("EUC-KR", "서울"),
    ],
    [
      "Latin-1 declared, read as windows-1252",
      iconv.encode(declared("iso-8859-1", "\u201cq\u201d \u20ac"), "windows-1252"),
      null,
      declared("iso-8859-1", "\u201cq\u201d \u20ac"),
    ],
    [
      "the declaration over the HTTP charset",
      iconv.encode(declared("ISO-8859-1", "é"), "latin1"),
      "text/xml; charset=utf-8",
      declared("ISO-8859-1", "é"),
    ],
    [
      "the HTTP charset without a declaration",
      iconv.encode("<t>£5</t>", "windows-1252"),
      'text/xml; charset="windows-1252"',
      "<t>£5</t>",
    ],
    [
      "an unknown label as UTF-8",
      bytes(declared("x-no-such", "é")),
      "text/xml; charset=x-nor-this",
      declared("x-no-such", "é"),
    ],
    [
      "a UTF-16 declaration on single bytes ignored",
      bytes(declared("UTF-16", "é")),
      null,
      declared("UTF-16", "é"),
    ],
    [
      "a single-byte label on valid UTF-8 bytes as UTF-8",
      bytes(declared("ISO-8859-1", "Déjà vu")),
      null,
      declared("ISO-8859-1", "Déjà vu"),
    ],
    [
      "stray bytes in UTF-8 as windows-1252",
      bytes("<t>Caf", [0xe9], " \u2713 ", [0x93, 0x94], "</t>"),
      null,
      "<t>Café \u2713 \u201c\u201d</t>",
    ],
    ["a truncated UTF-8 sequence", bytes("<t>", [0xe2, 0x82], "</t>"), null, "<t>â‚</t>"],
    [
      "C1 controls in valid UTF-8 as windows-1252",
      bytes("<t>don\u0092t \u0081</t>"),
      null,
      "<t>don\u2019t \u0081</t>",
    ],
  ])("%s", (_name, body, contentType, expected) => {
    expect(decodeFeedBytes(body, contentType)).toBe(expected);
  });
});
