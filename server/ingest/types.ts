import type { CategoryKey } from "../../shared/categories";

/** One item as read from a feed, before any normalisation. Strings are raw (may hold markup/entities). */
export interface RawItem {
  guid: string | null;
  title: string | null;
  link: string | null;
  /** RSS description / Atom summary. */
  summary: string | null;
  /** content:encoded / Atom content, when present. */
  content: string | null;
  /** pubDate / dc:date / published / updated, as written in the feed. */
  date: string | null;
  /** author / dc:creator / Atom author name, in that order of preference. */
  author: string | null;
  /** Candidate image URLs in order of preference (media:content, media:thumbnail, enclosure, itunes:image). */
  images: string[];
  /** xml:base in effect for the item, if any. */
  base: string | null;
}

export interface ParsedFeed {
  format: "rss" | "rdf" | "atom";
  title: string | null;
  link: string | null;
  /** RSS <ttl> in minutes, when present. */
  ttlMinutes: number | null;
  items: RawItem[];
  /** The document breaks off (or is malformed) after its last complete item: only the items before were read. */
  damaged: boolean;
}

/** An article ready to store: the spec's Article fields plus what deduplication needs. */
export interface NormalizedArticle {
  id: string;
  guid: string | null;
  title: string;
  excerpt: string;
  /** Sanitised HTML, ending with the "Read full article" link. */
  content: string;
  /** Absolute http(s) URL, or null for the bundled default image. */
  image: string | null;
  category: CategoryKey;
  /** Parsed item date; null when missing, unparseable or more than a day in the future. */
  date: Date | null;
  author: string;
  link: string;
}
