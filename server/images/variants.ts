/**
 * The copies pages may ask for, apart from sharp (server/images/picture.ts), so that the route can
 * check an address without loading it: sharp is loaded when a copy is first made.
 */

/** Widths pages may ask for; any other would let one picture fill the disk with copies. */
export const VARIANT_WIDTHS = [160, 320, 480, 640, 960, 1200, 1600] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

export const VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
