/**
 * The pictures a page's HTML asks a browser for, read from its markup: `src` and `srcset` of `<img>`
 * and `<source>`, and `href`/`imagesrcset` of `<link rel="preload" as="image">`. Sorted into the
 * copies of stored pictures our origin serves (`/images/<sha256>/<file>`, shared/picture.ts), the
 * site's other files, and addresses on other origins, which a reader's browser would ask another
 * host for. Used by the real-photos audit (to make each copy before measuring) and by
 * bench/pictures.ts.
 */

/** A copy of a stored picture: `/images/<sha256>/<width>.<avif|webp|jpg>` or a crop. */
export const STORED_PICTURE = /^\/images\/([0-9a-f]{64})\/([\w-]+\.(?:avif|webp|jpg))$/;

export interface PagePictures {
  /** Paths of stored pictures' copies, each once, in the order the page names them. */
  stored: string[];
  /** Other paths on our origin (the site's own pictures). */
  site: string[];
  /** Absolute addresses on any other origin. */
  otherOrigins: string[];
}

const TAG = /<(img|source|link)\b([^>]*)>/gi;
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/** The addresses of a `srcset`: each candidate's first word. */
function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(",")
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? "")
    .filter((url) => url !== "");
}

export function pagePictures(html: string, pageOrigin: string): PagePictures {
  const found: string[] = [];
  for (const [, tag, attributeText] of html.matchAll(TAG)) {
    const attributes = new Map<string, string>();
    for (const [, name, double, single] of (attributeText ?? "").matchAll(ATTRIBUTE)) {
      attributes.set((name ?? "").toLowerCase(), decodeEntities(double ?? single ?? ""));
    }
    const name = (tag ?? "").toLowerCase();
    if (name === "link") {
      const rel = attributes.get("rel")?.toLowerCase().split(/\s+/) ?? [];
      if (!rel.includes("preload") || attributes.get("as")?.toLowerCase() !== "image") continue;
      const href = attributes.get("href");
      if (href) found.push(href);
      found.push(...srcsetUrls(attributes.get("imagesrcset") ?? ""));
      continue;
    }
    const src = attributes.get("src");
    if (src && name === "img") found.push(src);
    found.push(...srcsetUrls(attributes.get("srcset") ?? ""));
  }
  const result: PagePictures = { stored: [], site: [], otherOrigins: [] };
  const seen = new Set<string>();
  for (const address of found) {
    if (address.startsWith("data:")) continue;
    const url = new URL(address, `${pageOrigin}/`);
    const key = url.href;
    if (seen.has(key)) continue;
    seen.add(key);
    if (url.origin !== pageOrigin) result.otherOrigins.push(url.href);
    else if (STORED_PICTURE.test(url.pathname)) result.stored.push(url.pathname);
    else result.site.push(url.pathname + url.search);
  }
  return result;
}
