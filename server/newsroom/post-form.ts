import { z } from "zod";
import { FEED_CATEGORIES } from "../../shared/categories";
import {
  POST_LIMITS,
  SLUG,
  slugFromTitle,
  type PostFields,
  type PostKind,
} from "../../shared/post-fields";
import { stripTags } from "../ingest/sanitize";
import { youtubeVideoId } from "../../shared/video";
import { formValues, storedId, textField } from "./form-input";
import { sanitizeBody } from "./post-body";
import { hasControl, tidy } from "./text";

/**
 * The editor's form, read (decision 028) through one zod schema per kind of post: each field
 * tidied and checked against its limit, the body sanitised. A draft may be incomplete;
 * `publishProblems` says what publishing still needs.
 */

export type PostFieldErrors = Partial<Record<keyof PostFields | "slug", string>>;

/** The form's fields, or what is wrong with them (every field is checked). */
export type ReadPostForm =
  | {
      ok: true;
      fields: PostFields;
      /** A blog post's address as asked for; "" to make it from the headline. */
      slug: string;
    }
  | { ok: false; errors: PostFieldErrors };

/** Categories a story may be filed in: those with feeds and pages (not "all"). */
export const STORY_CATEGORIES = FEED_CATEGORIES.map((c) => ({ key: c.key, name: c.name }));

/** A line of text, tidied, under `limit` characters. */
const line = (limit: number, label: string) =>
  textField
    .transform(tidy)
    .pipe(z.string().max(limit, `Keep the ${label} under ${limit} characters.`));

/** Text trimmed (and `prepared`), "" for an empty field; `check`ed, or `message`. */
const optional = (
  check: (value: string) => boolean,
  message: string,
  prepared = (value: string) => value,
) =>
  textField
    .transform((value) => prepared(value.trim()))
    .refine((value) => value === "" || check(value), message);

/** A field the kind of post does not have: always empty, whatever is posted. */
const none = <T extends "" | null>(value: T) => z.literal(value).catch(value);

const postForm = {
  title: line(POST_LIMITS.title, "headline"),
  dek: line(POST_LIMITS.dek, "dek"),
  description: line(POST_LIMITS.description, "meta description"),
  body: textField
    .transform((body) => body.replaceAll("\r\n", "\n"))
    .pipe(
      z
        .string()
        .max(
          POST_LIMITS.body,
          `The body is longer than ${POST_LIMITS.body.toLocaleString("en-US")} characters.`,
        ),
    ),
  bodyFormat: z.enum(["markdown", "html"]).catch("markdown"),
  category: textField
    .transform((key) => (key === "" ? null : key))
    .pipe(
      z
        .enum(STORY_CATEGORIES.map((c) => c.key) as [string, ...string[]], {
          error: "Choose one of the categories.",
        })
        .nullable(),
    ),
  // How many names first, then how long each is.
  bylines: textField
    .transform((names) =>
      names
        .split(/[\n,;]/)
        .map(tidy)
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string()).max(POST_LIMITS.bylines, `Give at most ${POST_LIMITS.bylines} names.`),
    )
    .pipe(
      z.array(
        z
          .string()
          .max(POST_LIMITS.byline, `Keep each name under ${POST_LIMITS.byline} characters.`),
      ),
    ),
  mediaId: optional(
    (id) => storedId.safeParse(id).success,
    "Choose a picture from the library.",
  ).transform((id) => (id === "" ? null : Number(id))),
  pictureAlt: line(POST_LIMITS.pictureAlt, "alt text"),
  pictureCredit: line(POST_LIMITS.pictureCredit, "credit"),
  videoUrl: optional(
    (url) => url.length <= POST_LIMITS.videoUrl && youtubeVideoId(url) !== null,
    "Give a YouTube address, or leave the video link empty.",
  ),
  shortTailKeywords: line(POST_LIMITS.keywords, "short-tail keywords"),
  longTailKeywords: line(POST_LIMITS.keywords, "long-tail keywords"),
  slug: optional(
    (slug) => SLUG.test(slug) && slug.length <= POST_LIMITS.slug && !hasControl(slug),
    "Use lower-case letters, digits and hyphens (at most 80), or leave it empty.",
    (slug) => slug.toLowerCase(),
  ),
};

/** A story: no address of its own (it is made from the headline when published). */
const storyForm = z.object({ ...postForm, slug: none("") });
/** A blog post: no dek, no category. */
const blogForm = z.object({ ...postForm, dek: none(""), category: none(null) });

export function readPostForm(form: FormData, kind: PostKind, siteUrl: string): ReadPostForm {
  const parsed = (kind === "story" ? storyForm : blogForm).safeParse(formValues(form));
  if (!parsed.success) {
    const errors: PostFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      errors[(name === "body" ? "bodyHtml" : name) as keyof PostFieldErrors] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const { body, bodyFormat, slug, ...fields } = parsed.data;
  return {
    ok: true,
    fields: { ...fields, bodyHtml: sanitizeBody(body, bodyFormat, siteUrl) },
    slug,
  };
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
