/**
 * What the newsroom writes: the fields of a story or blog post (decision 028), as saved in each
 * draft, revision and live copy. The blog post's are the spec's blog model (metaTitle as `title`,
 * metaDescription as `description`, youtubeShortsUrl as `videoUrl`, the two keyword lists); a
 * story adds its category, dek, bylines and picture words.
 */

export const POST_KINDS = ["story", "blog"] as const;
export type PostKind = (typeof POST_KINDS)[number];

export const POST_STATUSES = ["draft", "scheduled", "published", "unpublished"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export interface PostFields {
  title: string;
  /** A story's one or two sentences under the headline; lists show it as the excerpt. */
  dek: string;
  /** What search engines and social previews show (the spec's metaDescription). */
  description: string;
  /** The body as sanitised HTML (the site's one policy, server/newsroom/post-body.ts). */
  bodyHtml: string;
  /** A story's category key (shared/categories.ts); null for a blog post. */
  category: string | null;
  /** Staff names, in the order given. */
  bylines: string[];
  /** The picture at the top: an upload of the media library, or none. */
  mediaId: number | null;
  pictureAlt: string;
  pictureCredit: string;
  /** A video address (YouTube), shown as the Watch the Video block; "" for none. */
  videoUrl: string;
  /** Comma-separated, as the spec's model has them: shown together as Topics. */
  shortTailKeywords: string;
  longTailKeywords: string;
}

/** Limits of each field, in characters (bylines: names). Forms say them; the server checks them. */
export const POST_LIMITS = {
  title: 200,
  dek: 400,
  description: 300,
  body: 200_000,
  bylines: 5,
  byline: 100,
  pictureAlt: 300,
  pictureCredit: 200,
  videoUrl: 500,
  keywords: 500,
  slug: 80,
} as const;

export const EMPTY_POST_FIELDS: PostFields = {
  title: "",
  dek: "",
  description: "",
  bodyHtml: "",
  category: null,
  bylines: [],
  mediaId: null,
  pictureAlt: "",
  pictureCredit: "",
  videoUrl: "",
  shortTailKeywords: "",
  longTailKeywords: "",
};

/** The fields a revision comparison names, in the order the form shows them. */
export const POST_FIELD_LABELS: Record<keyof PostFields, string> = {
  title: "Headline",
  dek: "Dek",
  description: "Meta description",
  bodyHtml: "Body",
  category: "Category",
  bylines: "Bylines",
  mediaId: "Picture",
  pictureAlt: "Picture alt text",
  pictureCredit: "Picture credit",
  videoUrl: "Video link",
  shortTailKeywords: "Short-tail keywords",
  longTailKeywords: "Long-tail keywords",
};

/** The Topics a post shows: both keyword lists, trimmed, without repeats (any case). */
export function topicsOf(fields: Pick<PostFields, "shortTailKeywords" | "longTailKeywords">) {
  const seen = new Set<string>();
  const topics: string[] = [];
  for (const word of `${fields.shortTailKeywords},${fields.longTailKeywords}`.split(",")) {
    const topic = word.trim();
    if (topic && !seen.has(topic.toLowerCase())) {
      seen.add(topic.toLowerCase());
      topics.push(topic);
    }
  }
  return topics;
}

/** A blog address made from a headline: lower-case words joined by hyphens, at most 80 characters. */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, POST_LIMITS.slug)
    .replace(/-+$/g, "");
}

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
