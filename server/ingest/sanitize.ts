/**
 * Every HTML fragment from a feed or the blog passes through here before it is stored or shown:
 * sanitize-html keeps an allowlist of tags and attributes, http(s) links and images only (links also
 * mailto:), resolved to absolute URLs; links open in a new tab with `rel="noopener noreferrer"`.
 * Why sanitize-html and not DOMPurify over jsdom: docs/decisions/018-sanitize-html.md.
 */
import sanitize from "sanitize-html";
import { cleanText, decodeEntities, safeHttpUrl } from "../lib/text";

/**
 * Bump with every change to what sanitizeOptions makes of a fragment: stored articles sanitised with an
 * older version are sanitised again (resanitize.ts). sanitize.test.ts pins the options' hash to it.
 * 2: addresses over MAX_URL_LENGTH are no addresses (an `<img>` without one goes, an `<a>` is text).
 */
export const SANITIZE_POLICY_VERSION = 2;

// Elements dropped with their text, not just their tags.
const NON_TEXT_TAGS = [
  "script",
  "style",
  "textarea",
  "option",
  "select",
  "noscript",
  "noembed",
  "noframes",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "math",
  "template",
  "title",
  "head",
  "xmp",
  "plaintext",
];

function safeLink(href: string | undefined, baseUrl: string): string | null {
  if (!href) return null;
  const trimmed = decodeEntities(href).trim();
  if (/^mailto:/i.test(trimmed)) {
    // A mailto: link is an address and nothing else: no markup, quotes or controls.
    return /^mailto:[^\s<>"'`\\]+$/i.test(trimmed) ? trimmed : null;
  }
  return safeHttpUrl(trimmed, baseUrl);
}

function dimension(value: string | undefined): string | null {
  return value !== undefined && /^\d{1,4}$/.test(value.trim()) ? value.trim() : null;
}

/** The site's allowlist, as sanitize-html options; relative addresses resolve against `baseUrl`. */
export function sanitizeOptions(baseUrl: string): sanitize.IOptions {
  return {
    allowedTags: [
      ...["p", "br", "a", "ul", "ol", "li", "em", "strong", "b", "i", "span", "code", "pre"],
      ...["h2", "h3", "h4", "h5", "h6", "blockquote", "figure", "figcaption", "img"],
    ],
    allowedAttributes: {
      a: ["href", "target", "rel"],
      img: ["src", "alt", "width", "height", "loading"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https"] },
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
    allowVulnerableTags: false,
    disallowedTagsMode: "discard",
    nonTextTags: NON_TEXT_TAGS,
    enforceHtmlBoundary: false,
    parseStyleAttributes: false,
    transformTags: {
      h1: "h2",
      // A link without a safe address is plain text in a span.
      a: (_tagName, attribs): sanitize.Tag => {
        const href = safeLink(attribs.href, baseUrl);
        if (href === null) return { tagName: "span", attribs: {} };
        return { tagName: "a", attribs: { href, target: "_blank", rel: "noopener noreferrer" } };
      },
      img: (_tagName, attribs): sanitize.Tag => {
        const src = safeHttpUrl(attribs.src, baseUrl);
        const kept: sanitize.Attributes = {};
        if (src !== null) kept.src = src;
        if (attribs.alt !== undefined) kept.alt = cleanText(attribs.alt);
        const width = dimension(attribs.width);
        const height = dimension(attribs.height);
        if (width !== null) kept.width = width;
        if (height !== null) kept.height = height;
        kept.loading = "lazy";
        return { tagName: "img", attribs: kept };
      },
    },
    // An image without a safe address is dropped.
    exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  };
}

const TEXT_ONLY: sanitize.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: NON_TEXT_TAGS,
  disallowedTagsMode: "discard",
  enforceHtmlBoundary: false,
};

// Block-level tags as written become spaces in plain text, so "<p>One</p><p>Two</p>" reads "One Two".
const BLOCK_BOUNDARY =
  /<(\/?)(p|div|br|hr|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|figure|figcaption|section|article|header|footer|pre|dd|dt)\b/gi;

export interface SanitizedFragment {
  /** The sanitised HTML: `sanitizeHtml(fragment, baseUrl)`. */
  html: string;
  /** The plain text: `stripTags(fragment)`. */
  text: string;
  /** Whether the sanitised HTML has any text: `stripTags(html) !== ""`. */
  hasText: boolean;
}

/** `sanitizeHtml` and `stripTags` of one fragment. */
export function sanitizeFragment(fragment: string, baseUrl: string): SanitizedFragment {
  const html = sanitizeHtml(fragment, baseUrl);
  return { html, text: stripTags(fragment), hasText: stripTags(html) !== "" };
}

/**
 * Sanitises an HTML fragment to the site's allowlist; relative links and images resolve against `baseUrl`.
 * NUL goes first: browsers drop it, and no PostgreSQL text can hold it.
 */
export function sanitizeHtml(html: string, baseUrl: string): string {
  return sanitize(html.replaceAll("\0", ""), sanitizeOptions(baseUrl)).trim();
}

/** The text of an HTML fragment: markup removed (script and style contents dropped), entities decoded. */
export function stripTags(html: string): string {
  if (!/[<&]/.test(html)) return cleanText(html);
  const spaced = html.replace(BLOCK_BOUNDARY, " <$1$2");
  return cleanText(decodeEntities(sanitize(spaced, TEXT_ONLY)));
}
