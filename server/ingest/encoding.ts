/**
 * Feed bytes to text, the way feeds are really encoded: XML's own rules (byte-order mark, then the
 * declaration) before the HTTP charset, Latin-1 read as windows-1252 as browsers do, and a fallback for
 * UTF-8 with stray windows-1252 bytes. iconv-lite decodes; choosing what to decode with is ours.
 */
import { isAscii, isUtf8 } from "node:buffer";
import iconv from "iconv-lite";

const WINDOWS_1252 = "windows-1252";
// As browsers do (WHATWG Encoding), Latin-1 and ASCII labels mean windows-1252: bytes 0x80-0x9F in a feed are
// smart quotes and dashes, never C1 control characters.
const LATIN1_LABELS = new Set([
  "iso-8859-1",
  "iso8859-1",
  "iso_8859-1",
  "latin1",
  "latin-1",
  "l1",
  "us-ascii",
  "ascii",
  "cp1252",
  "windows-1252",
  "x-cp1252",
  "cp819",
]);

function canonicalCharset(label: string | null): string | null {
  if (!label) return null;
  const name = label.trim().toLowerCase();
  if (name === "utf8" || name === "utf-8" || name === "unicode-1-1-utf-8") return "utf-8";
  if (LATIN1_LABELS.has(name)) return WINDOWS_1252;
  return iconv.encodingExists(name) ? name : null;
}

function declaredEncoding(head: string): string | null {
  const match = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  return match?.[1] ?? null;
}

function httpCharset(contentType: string | null | undefined): string | null {
  const match = /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? "");
  return match?.[1] ?? null;
}

/** A view of the bytes as a Buffer, without copying them. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

let cp1252Table: string[] | null = null;

function cp1252(byte: number): string {
  cp1252Table ??= Array.from({ length: 256 }, (_, b) =>
    iconv.decode(Buffer.from([b]), WINDOWS_1252),
  );
  return cp1252Table[byte] ?? "\uFFFD";
}

/**
 * One valid UTF-8 sequence, on bytes read as latin1 (Unicode table 3-7: no overlongs, no
 * surrogates), or a byte that begins none.
 */
const UTF8_OR_STRAY =
  // eslint-disable-next-line no-control-regex -- any byte from 0x00 may begin a sequence
  /((?:[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2})+)|[\s\S]/g;

/**
 * UTF-8 that is not quite UTF-8: every valid sequence is read as UTF-8 and every stray byte as windows-1252,
 * so a Latin-1 feed without a declaration, or a UTF-8 feed with one pasted Latin-1 character, reads right.
 */
function decodeUtf8WithFallback(bytes: Buffer): string {
  const decoder = new TextDecoder("utf-8");
  return bytes
    .toString("latin1")
    .replace(UTF8_OR_STRAY, (run, valid?: string) =>
      valid ? decoder.decode(Buffer.from(valid, "latin1")) : cp1252(run.charCodeAt(0)),
    );
}

/**
 * Decodes a feed body: byte-order mark first, then the XML declaration's encoding, then the HTTP charset,
 * else UTF-8. A document labelled with a single-byte charset whose bytes are valid multi-byte UTF-8 is
 * mislabelled (a common CMS fault) and read as UTF-8. Stray bytes in UTF-8, and C1 controls anywhere, are
 * read as windows-1252.
 */
export function decodeFeedBytes(body: Uint8Array, contentType?: string | null): string {
  return demoronize(decodeBytes(asBuffer(body), contentType));
}

function decodeBytes(body: Buffer, contentType?: string | null): string {
  const [b0, b1, b2, b3] = body;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return decodeUtf8(body.subarray(3));
  if (b0 === 0xff && b1 === 0xfe) return iconv.decode(body.subarray(2), "utf-16le");
  if (b0 === 0xfe && b1 === 0xff) return iconv.decode(body.subarray(2), "utf-16be");
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00)
    return iconv.decode(body, "utf-16le");
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f)
    return iconv.decode(body, "utf-16be");

  const head = body.toString("latin1", 0, 1024);
  let charset = canonicalCharset(declaredEncoding(head));
  // A UTF-16 or UTF-32 declaration we could read as single bytes is wrong about itself.
  if (charset !== null && /^utf-?(16|32)/.test(charset)) charset = null;
  charset ??= canonicalCharset(httpCharset(contentType));
  if (charset !== null && /^utf-?(16|32)/.test(charset)) charset = null;

  if (charset === null || charset === "utf-8") return decodeUtf8(body);
  if (!isAscii(body) && isUtf8(body)) return new TextDecoder().decode(body);
  return iconv.decode(body, charset);
}

function decodeUtf8(bytes: Buffer): string {
  return isUtf8(bytes) ? new TextDecoder().decode(bytes) : decodeUtf8WithFallback(bytes);
}

/**
 * C1 control characters (U+0080-U+009F) never belong in text; in feeds they are windows-1252 punctuation
 * that went through a Latin-1 decoder ("don\u0092t"). Read them as windows-1252, as HTML does.
 */
function demoronize(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => {
    const mapped = cp1252(c.charCodeAt(0));
    return mapped === "\uFFFD" ? c : mapped;
  });
}
