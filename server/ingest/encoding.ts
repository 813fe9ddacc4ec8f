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

function isContinuation(bytes: Uint8Array, i: number, lo = 0x80, hi = 0xbf): boolean {
  const b = bytes[i];
  return b !== undefined && b >= lo && b <= hi;
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 (Unicode table 3-7: no overlongs, no surrogates). */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] ?? 0;
  if (b0 < 0x80) return 1;
  const c1 = isContinuation(bytes, i + 1);
  const c2 = isContinuation(bytes, i + 2);
  const c3 = isContinuation(bytes, i + 3);
  if (b0 >= 0xc2 && b0 <= 0xdf) return c1 ? 2 : 0;
  if (b0 === 0xe0) return isContinuation(bytes, i + 1, 0xa0) && c2 ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return c1 && c2 ? 3 : 0;
  if (b0 === 0xed) return isContinuation(bytes, i + 1, 0x80, 0x9f) && c2 ? 3 : 0;
  if (b0 === 0xf0) return isContinuation(bytes, i + 1, 0x90) && c2 && c3 ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return c1 && c2 && c3 ? 4 : 0;
  if (b0 === 0xf4) return isContinuation(bytes, i + 1, 0x80, 0x8f) && c2 && c3 ? 4 : 0;
  return 0;
}

/**
 * UTF-8 that is not quite UTF-8: every valid sequence is read as UTF-8 and every stray byte as windows-1252,
 * so a Latin-1 feed without a declaration, or a UTF-8 feed with one pasted Latin-1 character, reads right.
 */
function decodeUtf8WithFallback(bytes: Uint8Array): string {
  const decoder = new TextDecoder("utf-8");
  let out = "";
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    out += decoder.decode(bytes.subarray(start, i)) + cp1252(bytes[i] ?? 0);
    i += 1;
    start = i;
  }
  return out + decoder.decode(bytes.subarray(start));
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
