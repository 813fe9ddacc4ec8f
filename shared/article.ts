import type { CategoryKey } from "./categories";

/**
 * What lists of articles need: the spec's Article fields but the body, the date as ISO 8601. (Lists
 * never show a body; leaving it out keeps it out of every page's data.)
 */
export interface Article {
  id: string;
  title: string;
  excerpt: string;
  image: string | null;
  category: CategoryKey;
  date: string;
  author: string;
  link: string;
}

/** An article with its body (sanitised HTML ending with the "Read full article" link). */
export interface ArticleWithBody extends Article {
  content: string;
}
