/**
 * How large a picture is taken (inspectPicture, server/images/picture.ts), apart from sharp so
 * that the upload's messages can say it without loading sharp in the web process.
 */

/** 40 megapixels: far beyond any photo a page shows, about 120 MB decoded. */
export const MAX_INPUT_PIXELS = 40_000_000;

/**
 * PNG and GIF are taken up to 16 megapixels (a 5K screen is 14.7). Both shrink a flat picture to
 * almost nothing (30 megapixels of one colour: 400 KB of PNG, 21 KB of GIF), libvips decodes every
 * pixel of them for each copy (JPEG and WebP are shrunk as they are decoded), GIF slowest of all
 * (30 megapixels: 4.9 s to inspect, JPEG 1.4 s), and no camera writes them.
 */
export const LOSSLESS_MAX_PIXELS = 16_000_000;
