/**
 * The copies pages may ask for (shared/picture.ts, which the pages use too), apart from sharp
 * (server/images/picture.ts), so that the route can check an address without loading it: sharp is
 * loaded when a copy is first made.
 */
export {
  CROPS,
  VARIANT_FORMATS,
  VARIANT_WIDTHS,
  type CropName,
  type VariantFormat,
  type VariantShape,
  type VariantWidth,
} from "../../shared/picture";
