/** Pure helpers of the blog pages. */

/** What the blog is, for its page's description and its feed's. */
export const BLOG_DESCRIPTION =
  "Guides, explainers and notes from our newsroom about life in San Diego.";

/** The blog's RSS feed (app/routes/blog-rss.ts), linked from the blog page's head. */
export const BLOG_FEED_PATH = "/blog/rss.xml";

/** The spec's Topics: the keywords split on commas and trimmed, empty ones dropped. */
export function splitTags(keywords: string | null | undefined): string[] {
  if (!keywords) return [];
  return keywords
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

/**
 * Where "View on Pinterest" goes: the image's own address when it is an absolute http(s) URL (as
 * the hosted blog's pinterestImageLink is); null for a path on this site, which is on no board.
 */
export function pinterestLink(image: string | null | undefined): string | null {
  if (!image || !/^https?:\/\//i.test(image.trim())) return null;
  try {
    const url = new URL(image.trim());
    return url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** The number in `?page=`: a whole number from 1, 1 when absent; null for anything else. */
export function pageNumber(value: string | null): number | null {
  if (value === null) return 1;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}
