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
  author: string;
  link: string;
}

/** An article with its body (sanitised HTML ending with the "Read full article" link). */
export interface ArticleWithBody extends Article {
  content: string;
}
