import { decodeHTMLAttribute, escapeAttribute } from "entities";
import {
  FORMAT_FILES,
  fallbackVariant,
  variantSrcset,
  type ArticlePicture,
} from "../../shared/picture";

/**
 * Pictures inside an article's body. The body is our sanitiser's output (server/ingest/sanitize.ts),
 * whose `<img>` tags carry only `src`, `alt`, `width`, `height` and `loading`, double-quoted and
 * escaped, so they are read here with a pattern rather than parsed again. Pages show a body picture
 * only from our own origin: one we keep is drawn as a `<picture>` of our copies, one not fetched or
 * not usable is left out, as is the article's top picture repeated at the start of its body.
 */

const IMG = /<img\b[^>]*>/g;
const ATTRIBUTE = /([a-z-]+)="([^"]*)"/g;
const EMPTY_FIGURE = /<figure>\s*<\/figure>/g;

/** The body column of the article page is at most 768 CSS pixels wide. */
const BODY_SIZES = "(min-width: 768px) 768px, 100vw";
const BODY_MAX_WIDTH = 768;

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value] of tag.matchAll(ATTRIBUTE)) {
    if (name !== undefined && value !== undefined) {
      attributes.set(name, decodeHTMLAttribute(value));
    }
  }
  return attributes;
}

/** The addresses of the pictures in a sanitised body, in order, each once. */
export function bodyPictureUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const [tag] of html.matchAll(IMG)) {
    const src = attributesOf(tag).get("src");
    if (src) urls.add(src);
  }
  return [...urls];
}

const attribute = (name: string, value: string | number) =>
  ` ${name}="${escapeAttribute(String(value))}"`;

function pictureMarkup(picture: ArticlePicture, alt: string): string {
  if (picture.kind === "site") {
    return `<img${attribute("src", picture.src)}${attribute("alt", alt)} loading="lazy" decoding="async">`;
  }
  const limit = BODY_MAX_WIDTH * 2;
  const sources = (["avif", "webp"] as const)
    .map(
      (format) =>
        `<source${attribute("type", FORMAT_FILES[format].type)}${attribute("srcset", variantSrcset(picture, format, { maxWidth: limit }))}${attribute("sizes", BODY_SIZES)}>`,
    )
    .join("");
  const img =
    `<img${attribute("src", fallbackVariant(picture, BODY_MAX_WIDTH))}` +
    `${attribute("srcset", variantSrcset(picture, "jpeg", { maxWidth: limit }))}${attribute("sizes", BODY_SIZES)}` +
    `${attribute("alt", alt)}${attribute("width", picture.width)}${attribute("height", picture.height)}` +
    ` loading="lazy" decoding="async"${attribute("style", `background-color:${picture.color}`)}>`;
  return `<picture>${sources}${img}</picture>`;
}

/**
 * The body as pages show it: each picture we keep drawn from our copies, every other one left out
 * (an empty figure with it), and the top picture (`topUrl`) not repeated.
 */
export function withOwnPictures(
  html: string,
  pictures: ReadonlyMap<string, ArticlePicture>,
  topUrl: string | null,
): string {
  if (!html.includes("<img")) return html;
  return html
    .replace(IMG, (tag) => {
      const attributes = attributesOf(tag);
      const src = attributes.get("src");
      if (!src || src === topUrl) return "";
      const picture = pictures.get(src);
      return picture ? pictureMarkup(picture, attributes.get("alt") ?? "") : "";
    })
    .replace(EMPTY_FIGURE, "");
}
