import type { CategoryKey } from "./categories";
import type { ArticlePicture } from "./picture";

/**
 * What lists of articles need: the spec's Article fields but the body, the date as ISO 8601. (Lists
 * never show a body; leaving it out keeps it out of every page's data.)
 */
export interface Article {
  id: string;
  title: string;
  excerpt: string;
  /** Null: the bundled default picture (none in the feed, or not fetched or usable yet). */
  picture: ArticlePicture | null;
  category: CategoryKey;
  date: string;
  /** A feed's author; for an own story its bylines as one line ("A, B and C"). */
  author: string;
  link: string;
  /**
   * The publication's own story, written in the newsroom (decision 028). Absent on a feed story
   * rather than false, so the data of every list of feed stories stays as small as it was.
   */
  own?: true;
  /** The story group this is one version of (decision 032); absent when it stands alone. */
  group?: string;
  /** The outlets of the group's other versions ("also covered by"), oldest first; absent alone. */
  alsoCoveredBy?: string[];
}

/** What marks the publication's own work wherever a story is shown: one phrase, everywhere. */
export const OWN_STORY_LABEL = "Our reporting";

/** What the article page shows of an own story besides a feed story's fields. */
export interface OwnStoryDetails {
  /** Staff names, in the order given. */
  bylines: string[];
  /** The sentence or two under the headline; "" for none. */
  dek: string;
  /** The top picture's words; null when staff gave none. */
  pictureAlt: string | null;
  pictureCredit: string | null;
}

/**
 * An article with its body: a feed story's sanitised HTML ends with the "Read full article" link;
 * an own story's is the whole story, and `ownStory` says what else its page shows.
 */
export interface ArticleWithBody extends Article {
  content: string;
  ownStory?: OwnStoryDetails;
}

/** Another version of an article's story, from another outlet (decision 032). */
export interface StoryVersion {
  id: string;
  title: string;
  /** The outlet, as the article page names it: its host without "www.". */
  source: string;
  date: string;
}

/** How many outlets a card names before "and N more". */
const OUTLETS_NAMED = 3;

/** A card's line for a story group's other outlets: "Also covered by a.com, b.org and 2 more". */
export function alsoCoveredByLine(outlets: readonly string[]): string {
  const named = outlets.slice(0, OUTLETS_NAMED);
  const more = outlets.length - named.length;
  const tail = more > 0 ? [`${more} more`] : [];
  const parts = [...named, ...tail];
  const last = parts.pop() ?? "";
  return `Also covered by ${parts.length > 0 ? `${parts.join(", ")} and ${last}` : last}`;
}
