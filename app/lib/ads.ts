/** The spec's six banner slots, named by where they stand. */
export const AD_SLOTS = {
  homeTop: "6079445",
  homeSidebar: "1452360",
  homeWide: "6079446",
  articleTop: "1452361",
  articleSidebar: "6079448",
  listWide: "1452363",
} as const;

export type AdSlotId = (typeof AD_SLOTS)[keyof typeof AD_SLOTS];

/** Minimum heights of the spec: a wide banner, the placeholder box and a tall sidebar unit. */
export const AD_MIN_HEIGHT = { banner: 200, box: 250, tower: 600 } as const;

export type AdSize = keyof typeof AD_MIN_HEIGHT;

export function adScriptSrc(template: string, slot: string): string {
  return template.replaceAll("{slot}", encodeURIComponent(slot));
}
