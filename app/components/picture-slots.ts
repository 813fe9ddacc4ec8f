import type { VariantShape } from "../../shared/picture";

/**
 * How wide each of the pages' picture slots is drawn, for the `sizes` and `srcset` of its
 * pictures (ArticleImage). Each mirrors the Tailwind classes of its layout; change them together.
 *
 * Every page sits in `<main class="max-w-7xl px-4">`: the content is the viewport less 2rem, at
 * most 1248 px (80rem less the padding). Breakpoints: sm 640, md 768, lg 1024, xl 1280 px.
 * Gaps: gap-6 1.5rem, gap-8 2rem, gap-10 2.5rem.
 */
export interface PictureSlot {
  /** The `sizes` attribute: the width the picture is drawn at, by viewport width. */
  sizes: string;
  /**
   * `wide` for a slot that draws every picture in a 16:9 box, covered (aspect-video with
   * object-cover): its copies are the pictures' middle 16:9 alone, the part the box shows, or the
   * 16:9 around a picture's focus. A `whole` slot that covers a box of other proportions keeps the
   * focus in it too (ArticleImage's `object-position`).
   */
  shape: VariantShape;
  /** The widest the slot ever draws a picture, in CSS pixels (its copies stop at twice that). */
  maxWidth: number;
}

/** The content's width: the viewport less main's padding, then 1248 px from 1280 px on. */
const CONTENT = "calc(100vw - 2rem)";
const CONTENT_MAX = 1248;

export const PICTURE_SLOTS = {
  /**
   * Home's featured slider: each slide is 88 % of the content's width, 94 % from md on, so the
   * next story's edge shows (FeaturedSlider's SLIDE_WIDTH).
   */
  slider: {
    shape: "wide",
    sizes:
      "(min-width: 1280px) 1173px, (min-width: 768px) calc((100vw - 2rem) * 0.94), calc((100vw - 2rem) * 0.88)",
    maxWidth: 1173,
  },
  /** The slider's last slide fills the strip, nothing following it: the content's width. */
  sliderLast: {
    shape: "wide",
    sizes: `(min-width: 1280px) ${CONTENT_MAX}px, ${CONTENT}`,
    maxWidth: CONTENT_MAX,
  },
  /**
   * Community's top story: the content's whole width, but only 400 px tall, covered: a 16:9
   * photo is drawn 711 px wide whenever the box is narrower than that (phones, small tablets).
   */
  communityHero: {
    shape: "whole",
    sizes: `(min-width: 1280px) ${CONTENT_MAX}px, (min-width: 744px) ${CONTENT}, 712px`,
    maxWidth: CONTENT_MAX,
  },
  /** An article's picture: the main column, beside a 20rem sidebar (gap-10) from lg on. */
  articleHero: {
    shape: "wide",
    sizes: "(min-width: 1280px) 888px, (min-width: 1024px) calc(100vw - 24.5rem), " + CONTENT,
    // The widest is one column just below lg: 1023 − 32.
    maxWidth: 991,
  },
  /** Cards in one, two (sm) and three (lg) columns over the whole content: categories, archives. */
  cardThreeColumns: {
    shape: "wide",
    sizes:
      "(min-width: 1280px) 400px, (min-width: 1024px) calc((100vw - 5rem) / 3), " +
      `(min-width: 640px) calc((100vw - 3.5rem) / 2), ${CONTENT}`,
    maxWidth: 607,
  },
  /**
   * Cards in one, then two (sm) columns, beside a 20rem sidebar (gap-8) from lg on: home's
   * Latest News, Business, Community Stories.
   */
  cardTwoColumnsBesideSidebar: {
    shape: "wide",
    sizes:
      "(min-width: 1280px) 436px, (min-width: 1024px) calc((100vw - 25.5rem) / 2), " +
      `(min-width: 640px) calc((100vw - 3.5rem) / 2), ${CONTENT}`,
    maxWidth: 607,
  },
  /** Local News: cards in one, then three (md) columns, beside an 18rem sidebar from lg on. */
  cardLocalNews: {
    shape: "wide",
    sizes:
      "(min-width: 1280px) 293px, (min-width: 1024px) calc((100vw - 25rem) / 3), " +
      `(min-width: 768px) calc((100vw - 5rem) / 3), ${CONTENT}`,
    maxWidth: 735,
  },
  /**
   * An article's Related Stories: one, two (sm), three (xl) columns in the main column, beside
   * a 20rem sidebar (gap-10) from lg on.
   */
  cardRelated: {
    shape: "wide",
    sizes:
      "(min-width: 1280px) 280px, (min-width: 1024px) calc((100vw - 26rem) / 2), " +
      `(min-width: 640px) calc((100vw - 3.5rem) / 2), ${CONTENT}`,
    maxWidth: 607,
  },
  /** A search result's thumbnail: 10rem, not shown under sm. */
  searchThumbnail: { shape: "wide", sizes: "160px", maxWidth: 160 },
  /** A blog post's round picture in the list: 4rem, 6rem from sm on. */
  blogThumbnail: { shape: "whole", sizes: "(min-width: 640px) 96px, 64px", maxWidth: 96 },
  /** A blog post's picture: the content's width, at most 48rem (max-w-3xl). */
  blogHero: { shape: "wide", sizes: `(min-width: 800px) 768px, ${CONTENT}`, maxWidth: 768 },
} as const satisfies Record<string, PictureSlot>;
