import { Marked } from "marked";
import sanitize from "sanitize-html";
import TurndownService from "turndown";
import { sanitizeOptions } from "../ingest/sanitize";

/**
 * A newsroom body, as the editor sends it and as it is stored (decision 028). Whatever arrives (the
 * rich editor's HTML, or Markdown from the plain text area of a browser without JavaScript) is
 * never trusted: it passes through the site's one HTML policy (sanitize-html, server/ingest/
 * sanitize.ts), and then a picture stays only if it is one of our own uploads, named by its path
 * (`/images/<sha256>/<file>`): a body never makes a reader's browser fetch another host's picture.
 */

export type BodyFormat = "html" | "markdown";

/** A picture of our own store, as the editor and Markdown name it. */
const OWN_PICTURE_PATH = /^\/images\/([0-9a-f]{64})\/[a-z0-9x-]+\.(?:avif|webp|jpg)$/;

const markdown = new Marked({ gfm: true, breaks: false });

/** The body's HTML, sanitised: `siteUrl` resolves relative links and names our own pictures. */
export function sanitizeBody(input: string, format: BodyFormat, siteUrl: string): string {
  const html = format === "markdown" ? markdown.parse(input, { async: false }) : input;
  const origin = new URL(siteUrl).origin;
  const base = sanitizeOptions(siteUrl);
  const baseImg = base.transformTags?.img;
  const ownPath = (src: string | undefined) => {
    if (!src?.startsWith(`${origin}/`)) return null;
    const path = src.slice(origin.length);
    return OWN_PICTURE_PATH.test(path) ? path : null;
  };
  return sanitize(html.replaceAll("\0", ""), {
    ...base,
    transformTags: {
      ...base.transformTags,
      img: (tagName, attribs): sanitize.Tag => {
        const tag =
          typeof baseImg === "function"
            ? baseImg(tagName, attribs)
            : { tagName: "img", attribs: { ...attribs } };
        const path = ownPath(tag.attribs.src);
        const kept = { ...tag.attribs };
        if (path) kept.src = path;
        else delete kept.src;
        return { tagName: "img", attribs: kept };
      },
    },
  }).trim();
}

const turndown = new TurndownService({
  headingStyle: "atx",
  bulletListMarker: "-",
  codeBlockStyle: "fenced",
  emDelimiter: "_",
});

/** A stored body as Markdown, for the plain text area a browser without JavaScript edits. */
export function bodyAsMarkdown(html: string): string {
  return html.trim() === "" ? "" : turndown.turndown(html);
}

/** The store hash a path of ours names. */
export function pictureHashOf(path: string): string | null {
  return OWN_PICTURE_PATH.exec(path)?.[1] ?? null;
}
