/**
 * The spec's six banner slots, named by the part they play. Where each one stands on which page, and
 * at which width, is the ad plan's business (ad-plan.ts).
 */
export const AD_SLOTS = {
  /** The page's banner: under the home page's slider, under a section's heading, after a text page. */
  pageBanner: "6079445",
  /** The home page's tall sidebar unit. */
  homeSidebar: "1452360",
  /** The wide banner after the 6th story of a grid (the home page's Latest News, section pages). */
  gridWide: "6079446",
  /** The box in an article, after its text and the link to the full story. */
  articleBox: "1452361",
  /** The article page's tall sidebar unit. */
  articleSidebar: "6079448",
  /** A unit between stories: Local News, Community, the archives' banner. */
  listUnit: "1452363",
} as const;

export type AdSlotName = keyof typeof AD_SLOTS;

export const AD_SLOT_NAMES = Object.keys(AD_SLOTS) as AdSlotName[];

/** Minimum heights of the spec: a wide banner, the placeholder box and a tall sidebar unit. */
export const AD_MIN_HEIGHT = { banner: 200, box: 250, tower: 600 } as const;

export type AdSize = keyof typeof AD_MIN_HEIGHT;

/** The spec's sponsor ad types. */
export type SponsorType = "google" | "buddhatv" | "dunamis";

export function adScriptSrc(template: string, slot: string): string {
  return template.replaceAll("{slot}", encodeURIComponent(slot));
}
