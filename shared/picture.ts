/**
 * An article's picture as the pages name it. Feed pictures are fetched by ingest, kept by the
 * sha256 of their bytes and served from our own origin at `/images/<hash>/<file>` in the widths
 * and crops below (server/images, decision 022); pages never name another host's picture.
 */

/**
 * Widths pages may ask for; any other would let one picture fill the disk with copies. 800 is what
 * a full-width slot on a 360–412 px phone at about two device pixels per CSS pixel picks: without
 * it, those phones took 960 px copies, a third more bytes.
 */
export const VARIANT_WIDTHS = [160, 320, 480, 640, 720, 800, 960, 1200, 1600] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

export const VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** The file extension and media type of each format, modern first (the order of `<source>`s). */
export const FORMAT_FILES = {
  avif: { extension: "avif", type: "image/avif" },
  webp: { extension: "webp", type: "image/webp" },
  jpeg: { extension: "jpg", type: "image/jpeg" },
} as const satisfies Record<VariantFormat, { extension: string; type: string }>;

/**
 * Fixed crops, JPEG: `og` for social previews (1200 × 630), the others for the NewsArticle
 * JSON-LD, which Google asks for in 16:9, 4:3 and 1:1, at least 1200 pixels wide.
 */
export const CROPS = {
  og: { width: 1200, height: 630 },
  "16x9": { width: 1200, height: 675 },
  "4x3": { width: 1200, height: 900 },
  "1x1": { width: 1200, height: 1200 },
} as const;
export type CropName = keyof typeof CROPS;

/** A feed picture kept by us: its hash, its size as displayed and a placeholder colour. */
export interface StoredPicture {
  kind: "stored";
  /** sha256 of the original's bytes, 64 lower-case hex digits. */
  hash: string;
  width: number;
  height: number;
  /** `#rrggbb`, shown while the picture loads. */
  color: string;
}

/** A picture that is already a file of our own site (the bundled samples' pictures): a path. */
export interface SitePicture {
  kind: "site";
  /** A path on our origin, starting with `/`. */
  src: string;
}

export type ArticlePicture = StoredPicture | SitePicture;

export const PICTURE_HASH = /^[0-9a-f]{64}$/;
const COLOR = /^#[0-9a-f]{6}$/;

/** Checks a value read back from the database (a JSON column) before pages use it. */
export function asArticlePicture(value: unknown): ArticlePicture | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (
    v.kind === "stored" &&
    typeof v.hash === "string" &&
    PICTURE_HASH.test(v.hash) &&
    Number.isInteger(v.width) &&
    Number.isInteger(v.height) &&
    (v.width as number) > 0 &&
    (v.height as number) > 0 &&
    typeof v.color === "string" &&
    COLOR.test(v.color)
  ) {
    return {
      kind: "stored",
      hash: v.hash,
      width: v.width as number,
      height: v.height as number,
      color: v.color,
    };
  }
  if (v.kind === "site" && typeof v.src === "string" && /^\/(?!\/)/.test(v.src)) {
    return { kind: "site", src: v.src };
  }
  return null;
}

/**
 * How a copy is cut. `whole`: the whole picture. `wide`: its middle 16:9, for the slots that draw
 * every picture in a 16:9 box, covered (cards, the slider, an article's picture): a 3:2 photo
 * sends 16 % fewer pixels, a portrait one more than half fewer, and the box shows the same.
 */
export type VariantShape = "whole" | "wide";

/** The part of a picture a shape keeps: all of it, or its largest middle 16:9. */
export function shapeSize(
  picture: Pick<StoredPicture, "width" | "height">,
  shape: VariantShape,
): { width: number; height: number } {
  if (shape === "whole") return { width: picture.width, height: picture.height };
  const width = Math.max(1, Math.min(picture.width, Math.floor((picture.height * 16) / 9)));
  return { width, height: Math.max(1, Math.min(picture.height, Math.round((width * 9) / 16))) };
}

/** The address of one copy of a stored picture. */
export function variantPath(
  hash: string,
  width: VariantWidth,
  format: VariantFormat,
  shape: VariantShape = "whole",
): string {
  return `/images/${hash}/${shape === "wide" ? "wide-" : ""}${width}.${FORMAT_FILES[format].extension}`;
}

/** The address of a fixed crop of a stored picture (always JPEG). */
export function cropPath(hash: string, crop: CropName): string {
  return `/images/${hash}/${crop}.jpg`;
}

/**
 * The copies worth listing in a `srcset`, each with the width it really has: every allowed width
 * below the original's (or its wide part's), then the next one up, which is made at that width
 * itself (copies are never enlarged), so a small original is listed once at its own size.
 */
export function variantWidths(
  picture: Pick<StoredPicture, "width" | "height">,
  shape: VariantShape = "whole",
): { file: VariantWidth; actual: number }[] {
  const { width } = shapeSize(picture, shape);
  const below = VARIANT_WIDTHS.filter((w) => w < width).map((w) => ({ file: w, actual: w }));
  const next = VARIANT_WIDTHS.find((w) => w >= width);
  return next ? [...below, { file: next, actual: width }] : below;
}

/** Which copies a page lists: at most `maxWidth` wide (a slot's largest need), cut to `shape`. */
export interface VariantChoice {
  maxWidth?: number;
  shape?: VariantShape;
}

/** A `srcset` of a stored picture in one format. */
export function variantSrcset(
  picture: StoredPicture,
  format: VariantFormat,
  { maxWidth = Number.POSITIVE_INFINITY, shape = "whole" }: VariantChoice = {},
): string {
  const widths = variantWidths(picture, shape);
  const wanted = widths.filter((w) => w.actual <= maxWidth);
  // A slot narrower than the smallest copy still gets that copy.
  const list = wanted.length > 0 ? wanted : widths.slice(0, 1);
  return list
    .map((w) => `${variantPath(picture.hash, w.file, format, shape)} ${w.actual}w`)
    .join(", ");
}

/** The JPEG copy an `<img src>` names (for browsers without `srcset`): the widest up to `width`. */
export function fallbackVariant(
  picture: StoredPicture,
  width: number,
  shape: VariantShape = "whole",
): string {
  const widths = variantWidths(picture, shape);
  const fitting = widths.filter((w) => w.actual <= width);
  const chosen = fitting.at(-1) ?? widths[0];
  return variantPath(picture.hash, chosen?.file ?? VARIANT_WIDTHS[0], "jpeg", shape);
}

/** A picture for social previews (`og:image`): the 1200 × 630 crop of a stored one, else its file. */
export function socialImage(
  picture: ArticlePicture | null,
  alt: string,
): { url: string; width?: number; height?: number; alt: string } | null {
  if (!picture) return null;
  if (picture.kind === "site") return { url: picture.src, alt };
  return { url: cropPath(picture.hash, "og"), ...CROPS.og, alt };
}

/** The NewsArticle JSON-LD's pictures: the 16:9, 4:3 and 1:1 crops Google asks for, as site paths. */
export function structuredDataImages(picture: ArticlePicture | null): string[] | null {
  if (!picture) return null;
  if (picture.kind === "site") return [picture.src];
  return (["16x9", "4x3", "1x1"] as const).map((crop) => cropPath(picture.hash, crop));
}

/** A picture address that is a path on our own site (a blog post's bundled picture, say) as such. */
export function sitePicture(src: string | null): SitePicture | null {
  return src && /^\/(?!\/)/.test(src) ? { kind: "site", src } : null;
}

/** Where the site's own pictures are (public/images), and what they may be. */
const SITE_PICTURE_PATH = /^\/images\/[\w./-]+\.(?:svg|png|jpe?g|webp|avif|gif)$/;

/**
 * An address of our own site (absolute on `siteUrl`'s origin, or a path): its path, and whether it
 * is a file of the site's picture folder; null for another host's address.
 */
export function ownPath(
  url: string,
  siteUrl: string,
): { path: string; picture: SitePicture | null } | null {
  let path: string | undefined;
  try {
    const parsed = new URL(url);
    if (parsed.origin === new URL(siteUrl).origin) path = parsed.pathname + parsed.search;
  } catch {
    path = sitePicture(url)?.src;
  }
  if (path === undefined) return null;
  return { path, picture: SITE_PICTURE_PATH.test(path) ? { kind: "site", src: path } : null };
}
