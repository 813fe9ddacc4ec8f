import type { StoredPicture } from "../../shared/picture";

/**
 * Where blog posts come from. Two implementations, chosen by `BLOG_SOURCE`: Markdown files in
 * `content/blog/` (local, the default) and the spec's hosted blog API (hosted).
 * Everything a source returns is validated and its HTML sanitised: pages render it as it is.
 */

/** The spec's page size of the blog list. */
export const BLOG_PAGE_SIZE = 10;

/** A post as the list shows it (the spec's "Blog post summary"). */
export interface BlogPostSummary {
  slug: string;
  /** The spec's metaTitle. */
  title: string;
  /** The spec's metaDescription. */
  description: string;
  /** The spec's pinterestImageLink: an absolute http(s) URL or a site path; null when none. */
  image: string | null;
  /** ISO 8601 date of publication, when the source has one. */
  date: string | null;
  /**
   * A picture of our own (a newsroom post's upload, with its focal point), drawn in the copies
   * each slot needs. Absent for the configured source's posts: pages look their `image` up.
   */
  picture?: StoredPicture;
}

/** A whole post (the spec's "Blog post detail"). */
export interface BlogPost extends BlogPostSummary {
  author: string | null;
  /** A newsroom post's writers, one by one (`author` is them in one line: "A, B and C"). */
  bylines?: string[];
  /** The body as sanitised HTML. */
  html: string;
  /** The spec's youtubeShortsUrl, as given; null when none. */
  video: string | null;
  /** Comma-separated, as given. */
  shortTailKeywords: string;
  longTailKeywords: string;
  /** The words of the post's own `picture`: its alt text and credit (a newsroom post's). */
  pictureAlt?: string;
  pictureCredit?: string;
  /**
   * The Topics, when the writer's post says them (a newsroom post: both keyword lists); without
   * them pages list the short-tail keywords.
   */
  topics?: string[];
}

/** One page of the list (the spec's "Blog list response"). */
export interface BlogPage {
  posts: BlogPostSummary[];
  /** Posts in all pages. */
  total: number;
  /**
   * Set when one of the blog's sources could not answer and the page holds the other's posts
   * alone (server/blog/with-newsroom.ts): that source's message. `total` counts what is listed.
   */
  failure?: string;
}

/**
 * Newest first; a post without a date (the hosted list has none) after every dated one; posts of
 * one moment by slug, so the order is stable.
 */
export function newestFirst(
  a: Pick<BlogPostSummary, "date" | "slug">,
  b: Pick<BlogPostSummary, "date" | "slug">,
): number {
  const byDate = (b.date ?? "").localeCompare(a.date ?? "");
  return byDate !== 0 ? byDate : a.slug.localeCompare(b.slug);
}

/** What the list carries of a post. */
export function summaryOf(post: BlogPost): BlogPostSummary {
  const { slug, title, description, image, date, picture } = post;
  return { slug, title, description, image, date, ...(picture ? { picture } : {}) };
}

export interface BlogSource {
  /** Page `page` (from 1) of the posts, newest first, BLOG_PAGE_SIZE to a page. */
  list(page: number): Promise<BlogPage>;
  /** The post, or null when there is none with that slug. */
  get(slug: string): Promise<BlogPost | null>;
}

/**
 * The source could not answer (unreachable, a non-OK answer, an answer of the wrong shape). Its
 * message is what the page shows after "Error loading blogs: " or "Error loading blog: ".
 */
export class BlogSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BlogSourceError";
  }

  /**
   * Whether `error` is a BlogSourceError, also one made by another copy of this module: the server
   * creates the source, the page bundle that catches its errors has a copy of its own.
   */
  static is(error: unknown): error is BlogSourceError {
    return error instanceof Error && error.name === "BlogSourceError";
  }
}
