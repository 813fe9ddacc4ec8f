import { FEED_CATEGORIES, isCategoryKey } from "../../shared/categories";
import {
  POST_LIMITS,
  SLUG,
  slugFromTitle,
  type PostFields,
  type PostKind,
} from "../../shared/post-fields";
import { stripTags } from "../ingest/sanitize";
import { youtubeVideoId } from "../../shared/video";
import { sanitizeBody, type BodyFormat } from "./post-body";
import { hasControl, tidy } from "./text";

/**
 * The editor's form, read (decision 028): each field tidied and checked against its limit, the
 * body sanitised. A draft may be incomplete; `publishProblems` says what publishing still needs.
 */

export type PostFieldErrors = Partial<Record<keyof PostFields | "slug", string>>;

export interface ReadPostForm {
  fields: PostFields;
  /** A blog post's address as asked for; "" to make it from the headline. */
  slug: string;
  errors: PostFieldErrors;
}

/** Categories a story may be filed in: those with feeds and pages (not "all"). */
export const STORY_CATEGORIES = FEED_CATEGORIES.map((c) => ({ key: c.key, name: c.name }));

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export function readPostForm(form: FormData, kind: PostKind, siteUrl: string): ReadPostForm {
  const errors: PostFieldErrors = {};
  const line = (name: keyof PostFields, limit: number, label: string) => {
    const value = tidy(text(form, name));
    if (value.length > limit) errors[name] = `Keep the ${label} under ${limit} characters.`;
    return value.slice(0, limit);
  };

  const title = line("title", POST_LIMITS.title, "headline");
  const dek = kind === "story" ? line("dek", POST_LIMITS.dek, "dek") : "";
  const description = line("description", POST_LIMITS.description, "meta description");

  const rawBody = text(form, "body").replaceAll("\r\n", "\n");
  const format: BodyFormat = text(form, "bodyFormat") === "html" ? "html" : "markdown";
  let bodyHtml = "";
  if (rawBody.length > POST_LIMITS.body) {
    errors.bodyHtml = `The body is longer than ${POST_LIMITS.body.toLocaleString("en-US")} characters.`;
  } else {
    bodyHtml = sanitizeBody(rawBody, format, siteUrl);
  }

  let category: string | null = null;
  if (kind === "story") {
    const given = text(form, "category");
    if (given !== "") {
      if (isCategoryKey(given) && STORY_CATEGORIES.some((c) => c.key === given)) category = given;
      else errors.category = "Choose one of the categories.";
    }
  }

  const bylines = text(form, "bylines")
    .split(/[\n,;]/)
    .map(tidy)
    .filter(Boolean);
  if (bylines.length > POST_LIMITS.bylines) {
    errors.bylines = `Give at most ${POST_LIMITS.bylines} names.`;
  } else if (bylines.some((name) => name.length > POST_LIMITS.byline)) {
    errors.bylines = `Keep each name under ${POST_LIMITS.byline} characters.`;
  }

  const mediaText = text(form, "mediaId").trim();
  let mediaId: number | null = null;
  if (mediaText !== "") {
    const id = Number(mediaText);
    if (Number.isSafeInteger(id) && id > 0) mediaId = id;
    else errors.mediaId = "Choose a picture from the library.";
  }

  const videoUrl = text(form, "videoUrl").trim();
  if (videoUrl.length > POST_LIMITS.videoUrl || (videoUrl !== "" && !youtubeVideoId(videoUrl))) {
    errors.videoUrl = "Give a YouTube address, or leave the video link empty.";
  }

  let slug = "";
  if (kind === "blog") {
    slug = text(form, "slug").trim().toLowerCase();
    if (slug !== "" && (!SLUG.test(slug) || slug.length > POST_LIMITS.slug || hasControl(slug))) {
      errors.slug = "Use lower-case letters, digits and hyphens (at most 80), or leave it empty.";
    }
  }

  const fields: PostFields = {
    title,
    dek,
    description,
    bodyHtml,
    category,
    bylines: bylines.slice(0, POST_LIMITS.bylines),
    mediaId,
    pictureAlt: line("pictureAlt", POST_LIMITS.pictureAlt, "alt text"),
    pictureCredit: line("pictureCredit", POST_LIMITS.pictureCredit, "credit"),
    videoUrl: errors.videoUrl ? "" : videoUrl,
    shortTailKeywords: line("shortTailKeywords", POST_LIMITS.keywords, "short-tail keywords"),
    longTailKeywords: line("longTailKeywords", POST_LIMITS.keywords, "long-tail keywords"),
  };
  return { fields, slug, errors };
}

/** What a post still needs before readers may see it; empty when it can be published. */
export function publishProblems(kind: PostKind, fields: PostFields): PostFieldErrors {
  const problems: PostFieldErrors = {};
  if (fields.title === "") problems.title = "Give the headline.";
  if (stripTags(fields.bodyHtml) === "" && !fields.bodyHtml.includes("<img")) {
    problems.bodyHtml = "Write the body.";
  }
  if (kind === "story" && fields.category === null) problems.category = "Choose a category.";
  if (kind === "blog" && fields.description === "") {
    problems.description = "Give the meta description: the blog list shows it.";
  }
  if (fields.mediaId !== null && fields.pictureAlt === "") {
    problems.pictureAlt = "Describe the picture for readers who cannot see it (alt text).";
  }
  return problems;
}

/** A blog post's address: the one asked for, or one made from the headline. */
export function slugFor(asked: string, fields: PostFields, id: number): string {
  return asked || slugFromTitle(fields.title) || `post-${id}`;
}
