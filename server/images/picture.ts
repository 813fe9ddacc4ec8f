import sharp, { type Metadata } from "sharp";
import { shapeSize } from "../../shared/picture";
import type { VariantFormat, VariantShape, VariantWidth } from "./variants";

/**
 * What a fetched picture is, decided from its bytes alone (a feed host's Content-Type is not
 * believed), and its resized copies. Decoding stops before a picture larger than
 * MAX_INPUT_PIXELS uses the memory it would take.
 */

// libvips keeps decoded images in a cache and works on each image with a thread per core; the web
// process has a memory budget (decision 013) and makes one variant at a time, so neither helps it.
sharp.cache(false);
sharp.concurrency(1);

/** 40 megapixels: far beyond any photo a page shows, about 120 MB decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * PNG and GIF are taken up to 16 megapixels (a 5K screen is 14.7). Both shrink a flat picture to
 * almost nothing (30 megapixels of one colour: 400 KB of PNG, 21 KB of GIF), libvips decodes every
 * pixel of them for each copy (JPEG and WebP are shrunk as they are decoded), GIF slowest of all
 * (30 megapixels: 4.9 s to inspect, JPEG 1.4 s), and no camera writes them.
 */
export const LOSSLESS_MAX_PIXELS = 16_000_000;
const LOSSLESS_FORMATS: ReadonlySet<string> = new Set(["png", "gif"]);

export const PICTURE_FORMATS = ["jpeg", "png", "webp", "avif", "gif"] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

export interface PictureInfo {
  format: PictureFormat;
  /** As displayed, after the orientation the picture asks for. */
  width: number;
  height: number;
  /** A placeholder colour, `#rrggbb`. */
  dominant: string;
  animated: boolean;
}

export type Inspection =
  { kind: "picture"; picture: PictureInfo } | { kind: "refused"; reason: string };

const DECODE = { limitInputPixels: MAX_INPUT_PIXELS } as const;

function pictureFormat(metadata: Metadata): PictureFormat | null {
  // libheif reads both HEIC and AVIF; only AV1-compressed ones are AVIF.
  if (metadata.format === "heif") return metadata.compression === "av1" ? "avif" : null;
  return PICTURE_FORMATS.find((format) => format === metadata.format) ?? null;
}

export async function inspectPicture(bytes: Uint8Array): Promise<Inspection> {
  try {
    const metadata = await sharp(bytes, DECODE).metadata();
    const format = pictureFormat(metadata);
    // SVG is a document that can carry scripts and links, not a photo: never taken from a feed.
    if (!format) return { kind: "refused", reason: `not a photo format: ${metadata.format}` };
    // Read from the header: nothing is decoded yet.
    const pixels = metadata.width * (metadata.pageHeight ?? metadata.height);
    if (LOSSLESS_FORMATS.has(format) && pixels > LOSSLESS_MAX_PIXELS) {
      const megapixels = (pixels / 1e6).toFixed(1);
      return {
        kind: "refused",
        reason: `${format.toUpperCase()} of ${megapixels} megapixels: PNG and GIF are taken up to ${LOSSLESS_MAX_PIXELS / 1e6}`,
      };
    }
    const { dominant } = await sharp(bytes, DECODE).stats();
    const hex = [dominant.r, dominant.g, dominant.b]
      .map((channel) => channel.toString(16).padStart(2, "0"))
      .join("");
    return {
      kind: "picture",
      picture: {
        format,
        width: metadata.autoOrient.width,
        height: metadata.autoOrient.height,
        dominant: `#${hex}`,
        animated: (metadata.pages ?? 1) > 1,
      },
    };
  } catch (error) {
    return { kind: "refused", reason: (error as Error).message };
  }
}

/**
 * A copy `width` pixels wide (never wider than the original), upright, with no metadata (sharp
 * writes none unless asked: no EXIF, no location), the first frame of an animation only. A `wide`
 * copy is the picture's middle 16:9 (shapeSize), cut as the pages' 16:9 boxes cover it (centred).
 */
export async function renderVariant(
  original: Uint8Array,
  variant: { width: VariantWidth; format: VariantFormat; shape?: VariantShape },
): Promise<Buffer> {
  let image = sharp(original, DECODE).rotate();
  if (variant.shape === "wide") {
    const { autoOrient } = await sharp(original, DECODE).metadata();
    const part = shapeSize(autoOrient, "wide");
    // The same part at the width asked for, never wider than the part itself.
    const { width, height } = shapeSize(
      { width: Math.min(variant.width, part.width), height: part.height },
      "wide",
    );
    image = image.resize({ width, height, fit: "cover", position: "centre" });
  } else {
    image = image.resize({ width: variant.width, withoutEnlargement: true });
  }
  switch (variant.format) {
    case "avif":
      return image.avif({ quality: 42, effort: 3 }).toBuffer();
    case "webp":
      return image.webp({ quality: 75 }).toBuffer();
    case "jpeg":
      return image.jpeg({ quality: 78, mozjpeg: true }).toBuffer();
  }
}

/**
 * A fixed crop (social previews, structured data): exactly `width` × `height`, cut around the part
 * of the picture that draws the eye (libvips' attention strategy), enlarged if the original is
 * smaller, JPEG, upright and without metadata.
 */
export async function renderCrop(
  original: Uint8Array,
  crop: { width: number; height: number },
): Promise<Buffer> {
  return sharp(original, DECODE)
    .rotate()
    .resize({ width: crop.width, height: crop.height, fit: "cover", position: "attention" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
