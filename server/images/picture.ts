import sharp, { type Metadata } from "sharp";
import { aspectSize, cropRegion, shapeSize, type Focus } from "../../shared/picture";
import { LOSSLESS_MAX_PIXELS, MAX_INPUT_PIXELS } from "./limits";
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

export { LOSSLESS_MAX_PIXELS, MAX_INPUT_PIXELS };
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

/**
 * Why a picture is refused: not one of PICTURE_FORMATS (`format`), more than MAX_INPUT_PIXELS
 * (`pixels`), a PNG or GIF of more than LOSSLESS_MAX_PIXELS (`lossless-pixels`), or bytes that do
 * not decode (`unreadable`: cut short, damaged, or a process that stopped on them).
 */
export type Refusal = "format" | "pixels" | "lossless-pixels" | "unreadable";

export type Inspection =
  { kind: "picture"; picture: PictureInfo } | { kind: "refused"; problem: Refusal; reason: string };

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
    if (!format) {
      return {
        kind: "refused",
        problem: "format",
        reason: `not a photo format: ${metadata.format}`,
      };
    }
    // Read from the header: nothing is decoded yet.
    const pixels = metadata.width * (metadata.pageHeight ?? metadata.height);
    if (LOSSLESS_FORMATS.has(format) && pixels > LOSSLESS_MAX_PIXELS) {
      const megapixels = (pixels / 1e6).toFixed(1);
      return {
        kind: "refused",
        problem: "lossless-pixels",
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
    const reason = (error as Error).message;
    return { kind: "refused", problem: refusalOf(reason), reason };
  }
}

/** Loaders of PICTURE_FORMATS, as libvips names them in its messages (`gifload_buffer: …`). */
const OUR_LOADERS: ReadonlySet<string> = new Set(["jpeg", "png", "webp", "heif", "gif"]);

/** What libvips' message says of bytes it could not read. */
function refusalOf(message: string): Refusal {
  if (/exceeds pixel limit/i.test(message)) return "pixels";
  if (/unsupported image format|buffer is empty/i.test(message)) return "format";
  // A broken file of a format not taken anyway (an SVG without a size) is of that format first.
  const loader = /\b([a-z]+)load(?:_buffer|_source)?\b/.exec(message)?.[1];
  if (loader && !OUR_LOADERS.has(loader)) return "format";
  return "unreadable";
}

/**
 * A copy `width` pixels wide (never wider than the original), upright, with no metadata (sharp
 * writes none unless asked: no EXIF, no location), the first frame of an animation only. A `wide`
 * copy is the picture's middle 16:9 (shapeSize), cut as the pages' 16:9 boxes cover it (centred),
 * or with a `focus` the 16:9 around it (cropRegion).
 */
export async function renderVariant(
  original: Uint8Array,
  variant: { width: VariantWidth; format: VariantFormat; shape?: VariantShape; focus?: Focus },
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
    // After rotate(), extract() takes the upright picture's pixels.
    if (variant.focus) image = image.extract(cropRegion(autoOrient, part, variant.focus));
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
 * A fixed crop (social previews, structured data): exactly `width` × `height`, cut around the
 * `focus` when there is one (cropRegion), else around the part of the picture that draws the eye
 * (libvips' attention strategy), enlarged if the original is smaller, JPEG, upright and without
 * metadata.
 */
export async function renderCrop(
  original: Uint8Array,
  crop: { width: number; height: number; focus?: Focus },
): Promise<Buffer> {
  let image = sharp(original, DECODE).rotate();
  if (crop.focus) {
    const { autoOrient } = await sharp(original, DECODE).metadata();
    image = image.extract(cropRegion(autoOrient, aspectSize(autoOrient, crop), crop.focus));
  }
  return image
    .resize({
      width: crop.width,
      height: crop.height,
      fit: "cover",
      // The part cut around a focus has the crop's proportions already, give or take a pixel.
      position: crop.focus ? "centre" : "attention",
    })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}

/**
 * An uploaded picture as it is kept (server/images/upload.ts): upright, and re-encoded, which
 * leaves every piece of metadata behind (EXIF with its location, XMP, IPTC, comments, the ICC
 * profile, its colours turned to sRGB). Each format stays itself (JPEG at quality 90 with mozjpeg,
 * WebP at 90, AVIF at 70, PNG lossless), but for GIF: its first frame as PNG, the one frame pages
 * show, without the cost of decoding every frame for each copy. Animated WebP keeps its first
 * frame too. Only for bytes inspectPicture took.
 */
export async function cleanOriginal(bytes: Uint8Array): Promise<Buffer> {
  const { format } = await sharp(bytes, DECODE).metadata();
  const image = sharp(bytes, DECODE).rotate();
  switch (format) {
    case "jpeg":
      return image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    case "webp":
      return image.webp({ quality: 90 }).toBuffer();
    case "heif":
      return image.avif({ quality: 70, effort: 3 }).toBuffer();
    case "png":
    case "gif":
      return image.png().toBuffer();
    default:
      throw new Error(`Not a picture to keep: ${format}`);
  }
}
