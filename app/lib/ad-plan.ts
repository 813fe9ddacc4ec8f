import { type AdSize, type AdSlotName, type SponsorType } from "../../shared/ads";

/**
 * The ad plan: which ads each kind of page carries, where, and at which width. Pages render what the
 * plan says for a position (`PageAds`, `ListAd`); they never pick slots of their own.
 *
 * Small screens (below 768 px) get the spec's reduced set: exactly one banner slot per page, chosen
 * by CSS so that nothing moves when a page loads and it holds without JavaScript:
 * - home: the banner under the slider;
 * - section grids (every category page but Local News and Community) and the archives: the banner
 *   under the heading, as the list may be collapsed to 5 stories;
 * - Local News and Community: the first unit between stories (after the 3rd, after the 4th);
 * - an article: the box after its text and the link to the full story;
 * - every other page (text pages, events, blog, search, newsletter, 404): the banner after its content.
 * Sponsor cards are short text ads, not banners: they show at every width.
 */

export type PageKind =
  "home" | "grid" | "localNews" | "community" | "archives" | "article" | "events" | "page";

/**
 * Where an ad stands. `lead` is the page's first ad (where depends on the page: under the home
 * page's slider, under a heading, after an article's text); `list` is between stories; `sidebar`
 * in the page's side column; `end` after the page's content.
 */
export type AdPosition = "lead" | "list" | "sidebar" | "end";

export interface PlannedSlot {
  slot: AdSlotName;
  size: AdSize;
  position: AdPosition;
  /**
   * In a list only: once after the `after`th story (when more follow), or after every `every`th
   * story but never after the last.
   */
  after?: number;
  every?: number;
  /** Shown below 768 px. A unit repeated in a list shows only its first there. */
  small: boolean;
}

interface PlannedSponsor {
  sponsor: SponsorType;
  position: Exclude<AdPosition, "list">;
}

export interface PagePlan {
  slots: readonly PlannedSlot[];
  sponsors?: readonly PlannedSponsor[];
}

/** The spec: a wide banner follows the 6th article (index 5) on grid pages and the 9th (index 8) on archives. */
export const GRID_WIDE_AFTER = 6;
const ARCHIVES_WIDE_AFTER = 9;
/** The spec: an ad unit after every third article on Local News, after every fourth story on Community. */
const LOCAL_NEWS_EVERY = 3;
const COMMUNITY_EVERY = 4;

const pageBanner = (position: AdPosition): PlannedSlot => ({
  slot: "pageBanner",
  size: "banner",
  position,
  small: true,
});

const gridWide: PlannedSlot = {
  slot: "gridWide",
  size: "banner",
  position: "list",
  after: GRID_WIDE_AFTER,
  small: false,
};

export const AD_PLAN: Record<PageKind, PagePlan> = {
  home: {
    slots: [
      pageBanner("lead"),
      gridWide,
      { slot: "homeSidebar", size: "tower", position: "sidebar", small: false },
    ],
  },
  grid: { slots: [pageBanner("lead"), gridWide] },
  localNews: {
    slots: [
      { slot: "listUnit", size: "box", position: "list", every: LOCAL_NEWS_EVERY, small: true },
    ],
  },
  community: {
    slots: [
      { slot: "listUnit", size: "box", position: "list", every: COMMUNITY_EVERY, small: true },
    ],
    sponsors: [{ sponsor: "dunamis", position: "sidebar" }],
  },
  archives: {
    slots: [
      pageBanner("lead"),
      {
        slot: "listUnit",
        size: "banner",
        position: "list",
        after: ARCHIVES_WIDE_AFTER,
        small: false,
      },
    ],
  },
  article: {
    slots: [
      { slot: "articleBox", size: "box", position: "lead", small: true },
      { slot: "articleSidebar", size: "tower", position: "sidebar", small: false },
    ],
    sponsors: [
      { sponsor: "google", position: "sidebar" },
      { sponsor: "buddhatv", position: "sidebar" },
    ],
  },
  events: {
    slots: [pageBanner("end")],
    sponsors: [{ sponsor: "dunamis", position: "end" }],
  },
  page: { slots: [pageBanner("end")] },
};

/** The slots of a page kind at a position outside lists, in order. */
export function slotsAt(kind: PageKind, position: Exclude<AdPosition, "list">): PlannedSlot[] {
  return AD_PLAN[kind].slots.filter((s) => s.position === position);
}

export function sponsorsAt(kind: PageKind, position: Exclude<AdPosition, "list">): SponsorType[] {
  return (AD_PLAN[kind].sponsors ?? [])
    .filter((s) => s.position === position)
    .map((s) => s.sponsor);
}

/** The unit that follows the story at `index` of the `shown` ones, if the plan puts one there. */
export function listAdAfter(
  kind: PageKind,
  index: number,
  shown: number,
): { slot: AdSlotName; size: AdSize; small: boolean } | null {
  const position = index + 1;
  // Never after the last story shown: a list ends with a story.
  if (position >= shown) return null;
  for (const planned of AD_PLAN[kind].slots) {
    if (planned.position !== "list") continue;
    if (planned.after === position) {
      return { slot: planned.slot, size: planned.size, small: planned.small };
    }
    if (planned.every && position % planned.every === 0) {
      // Small screens get only the first of a repeated unit.
      const small = planned.small && position === planned.every;
      return { slot: planned.slot, size: planned.size, small };
    }
  }
  return null;
}
