/**
 * JSON-LD for a `<script type="application/ld+json">`: `<`, `>` and `&` are written as Unicode
 * escapes (and the line separators JavaScript chokes on), so no text inside, however hostile, can
 * close the script element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
