import type { CategoryKey } from "./categories";

/** What pages need of an article: the spec's Article fields, the date as ISO 8601. */
export interface Article {
  id: string;
  title: string;
  excerpt: string;
  content: string;
  image: string | null;
  category: CategoryKey;
  date: string;
  author: string;
  link: string;
}
