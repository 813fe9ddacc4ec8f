/**
 * An article's picture as the pages name it. Feed pictures are fetched by ingest (staff's uploads
 * come from the newsroom), kept by the sha256 of their bytes and served from our own origin at
 * `/images/<hash>/<file>` in the widths and crops below, cut around the picture's focus when it
 * has one (server/images, decision 022); pages never name another host's picture.
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

/**
 * The point of a picture every crop keeps in frame (staff choose it for their uploads), in percent
 * of its width (`x`, from the left) and height (`y`, from the top), 0–100.
 */
export interface Focus {
  x: number;
  y: number;
}

/**
 * A picture kept by us (a feed's, or one staff uploaded): its hash, its size as displayed and a
 * placeholder colour, and the point its crops keep in frame, when one was chosen.
 */
export interface StoredPicture {
  kind: "stored";
  /** sha256 of the original's bytes, 64 lower-case hex digits. */
  hash: string;
  width: number;
  height: number;
  /** `#rrggbb`, shown while the picture loads. */
  color: string;
  /** Without one, wide copies are cut centred and fixed crops around what draws the eye. */
  focus?: Focus;
}

/** A newsroom upload as pages draw it: our stored copies, cut around its focal point. */
export function uploadedPicture(
  upload: Omit<StoredPicture, "kind" | "focus"> & { focusX: number; focusY: number },
): StoredPicture {
  const { hash, width, height, color, focusX, focusY } = upload;
  return { kind: "stored", hash, width, height, color, focus: { x: focusX, y: focusY } };
}

/** A picture that is already a file of our own site (the bundled samples' pictures): a path. */
export interface SitePicture {
  kind: "site";
  /** A path on our origin, starting with `/`. */
  src: string;
}

export type ArticlePicture = StoredPicture | SitePicture;

const PICTURE_HASH = /^[0-9a-f]{64}$/;
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
    const focus = asFocus(v.focus);
    return {
      kind: "stored",
      hash: v.hash,
      width: v.width as number,
      height: v.height as number,
      color: v.color,
      ...(focus ? { focus } : {}),
    };
  }
  return v.kind === "site" && typeof v.src === "string" ? sitePicture(v.src) : null;
}

function asFocus(value: unknown): Focus | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { x, y } = value as Record<string, unknown>;
  const percent = (n: unknown): n is number => typeof n === "number" && n >= 0 && n <= 100;
  return percent(x) && percent(y) ? { x, y } : undefined;
}

/**
 * How a copy is cut. `whole`: the whole picture. `wide`: its middle 16:9 (or the 16:9 around its
 * focus), for the slots that draw every picture in a 16:9 box, covered (cards, the slider, an
 * article's picture): a 3:2 photo sends 16 % fewer pixels, a portrait one more than half fewer,
 * and the box shows the same.
 */
export type VariantShape = "whole" | "wide";

/** The size of the part of a picture a shape keeps: all of it, or its largest 16:9. */
export function shapeSize(
  picture: Pick<StoredPicture, "width" | "height">,
  shape: VariantShape,
): { width: number; height: number } {
  if (shape === "whole") return { width: picture.width, height: picture.height };
  const width = Math.max(1, Math.min(picture.width, Math.floor((picture.height * 16) / 9)));
  return { width, height: Math.max(1, Math.min(picture.height, Math.round((width * 9) / 16))) };
}

/** The largest part of a picture in the proportions of `aspect` (a fixed crop's). */
export function aspectSize(
  picture: { width: number; height: number },
  aspect: { width: number; height: number },
): { width: number; height: number } {
  if (picture.width * aspect.height > picture.height * aspect.width) {
    const width = Math.round((picture.height * aspect.width) / aspect.height);
    return { width: Math.max(1, Math.min(picture.width, width)), height: picture.height };
  }
  const height = Math.round((picture.width * aspect.height) / aspect.width);
  return { width: picture.width, height: Math.max(1, Math.min(picture.height, height)) };
}

/**
 * Where a part of `part`'s size is cut from a picture: around the focus, as near the part's middle
 * as the picture's edges allow (a focus near an edge puts the part against that edge); without a
 * focus, from the middle. In the picture's pixels as displayed (upright).
 */
export function cropRegion(
  picture: { width: number; height: number },
  part: { width: number; height: number },
  focus: Focus = { x: 50, y: 50 },
): { left: number; top: number; width: number; height: number } {
  const width = Math.max(1, Math.min(picture.width, part.width));
  const height = Math.max(1, Math.min(picture.height, part.height));
  const place = (size: number, length: number, percent: number) =>
    Math.min(size - length, Math.max(0, Math.round((size * percent) / 100 - length / 2)));
  return {
    left: place(picture.width, width, focus.x),
    top: place(picture.height, height, focus.y),
    width,
    height,
  };
}

/**
 * A focus as addresses carry it: in steps of FOCUS_STEP percent, so that one picture has at most
 * 21 × 21 focused copies of each kind, not one per point a request could name.
 */
const FOCUS_STEP = 5;

export function addressFocus(focus: Focus): Focus {
  const step = (n: number) => Math.min(100, Math.max(0, Math.round(n / FOCUS_STEP) * FOCUS_STEP));
  return { x: step(focus.x), y: step(focus.y) };
}

/** A focus in a file name: `f35x60` (35 % from the left, 60 % from the top). */
const focusName = (focus: Focus) => {
  const { x, y } = addressFocus(focus);
  return `f${x}x${y}`;
};

/**
 * The focus a wide copy's address carries: none when the picture has none, or when its cut is
 * the middle one anyway (a picture of 16:9 already, a focus in its middle), so that such pictures
 * keep the copies every other picture has (and those made ahead of time).
 */
export function wideFocus(
  picture: Pick<StoredPicture, "width" | "height" | "focus">,
): Focus | undefined {
  if (!picture.focus) return undefined;
  const focus = addressFocus(picture.focus);
  const part = shapeSize(picture, "wide");
  const focused = cropRegion(picture, part, focus);
  const middle = cropRegion(picture, part);
  return focused.left === middle.left && focused.top === middle.top ? undefined : focus;
}

/**
 * Where a picture's focus lies in its copies of a shape, in percent of their width and height: a
 * slot that covers a box of other proportions with them (`object-position`) keeps the focus in
 * the box, as the point x % across the copy is drawn x % across the box. Undefined without one.
 */
export function focusInCopy(
  picture: Pick<StoredPicture, "width" | "height" | "focus">,
  shape: VariantShape,
): Focus | undefined {
  if (!picture.focus) return undefined;
  const { x, y } = picture.focus;
  const region =
    shape === "wide"
      ? cropRegion(picture, shapeSize(picture, "wide"), addressFocus(picture.focus))
      : { left: 0, top: 0, ...picture };
  const within = (point: number, start: number, length: number) =>
    Math.round(Math.min(100, Math.max(0, ((point - start) / length) * 100)));
  return {
    x: within((picture.width * x) / 100, region.left, region.width),
    y: within((picture.height * y) / 100, region.top, region.height),
  };
}

/**
 * The address of one copy of a stored picture: `<width>.<ext>`, `wide-<width>.<ext>`, or for a
 * wide copy cut around a focus `wide-f<x>x<y>-<width>.<ext>` (the focus in steps of FOCUS_STEP).
 */
export function variantPath(
  hash: string,
  width: VariantWidth,
  format: VariantFormat,
  shape: VariantShape = "whole",
  focus?: Focus,
): string {
  const cut = shape === "wide" ? (focus ? `wide-${focusName(focus)}-` : "wide-") : "";
  return `/images/${hash}/${cut}${width}.${FORMAT_FILES[format].extension}`;
}

/**
 * The address of a fixed crop of a stored picture (always JPEG): `<crop>.jpg`, or cut around a
 * focus `<crop>-f<x>x<y>.jpg` (the focus in steps of FOCUS_STEP).
 */
export function cropPath(hash: string, crop: CropName, focus?: Focus): string {
  return `/images/${hash}/${crop}${focus ? `-${focusName(focus)}` : ""}.jpg`;
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
  const focus = shape === "wide" ? wideFocus(picture) : undefined;
  return list
    .map((w) => `${variantPath(picture.hash, w.file, format, shape, focus)} ${w.actual}w`)
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
  const focus = shape === "wide" ? wideFocus(picture) : undefined;
  return variantPath(picture.hash, chosen?.file ?? VARIANT_WIDTHS[0], "jpeg", shape, focus);
}

/**
 * A picture for social previews (`og:image`): the 1200 × 630 crop of a stored one (around its
 * focus when it has one), else its file.
 */
export function socialImage(
  picture: ArticlePicture | null,
  alt: string,
): { url: string; width?: number; height?: number; alt: string } | null {
  if (!picture) return null;
  if (picture.kind === "site") return { url: picture.src, alt };
  return { url: cropPath(picture.hash, "og", picture.focus), ...CROPS.og, alt };
}

/**
 * The NewsArticle JSON-LD's pictures: the 16:9, 4:3 and 1:1 crops Google asks for, as site paths,
 * cut around the picture's focus when it has one.
 */
export function structuredDataImages(picture: ArticlePicture | null): string[] | null {
  if (!picture) return null;
  if (picture.kind === "site") return [picture.src];
  return (["16x9", "4x3", "1x1"] as const).map((crop) =>
    cropPath(picture.hash, crop, picture.focus),
  );
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
