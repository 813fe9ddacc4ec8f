import { z } from "zod";
import { sanitizeHtml } from "../ingest/sanitize";
import { imageAddress, plainText, publicationDate } from "./fields";
import {
  BLOG_PAGE_SIZE,
  BlogSourceError,
  type BlogPage,
  type BlogPost,
  type BlogPostSummary,
  type BlogSource,
} from "./source";

/**
 * The spec's hosted blog API (§7): two GET functions behind a bearer key.
 *   {apiUrl}/get_metainfo?domain={site host without www.}&page={n} → { blogs: [...], total }
 *   {apiUrl}/get_details?slug={slug}                               → the post detail object
 * Every answer is validated; bodies are sanitised; answers are kept for a short while so that
 * repeated views do not reach the API. The key goes into the Authorization header and nowhere else.
 */

const LIST_FAILED = "Failed to fetch blogs";
const DETAILS_FAILED = "Failed to fetch blog details";
const WRONG_SHAPE = "the blog service sent an answer of an unexpected shape";
const NOT_JSON = "the blog service sent an answer that is not JSON";

/** Text the API may leave out or send as null; any other type is a wrong answer. */
const optionalText = z.string().nullish();

const summarySchema = z.object({
  id: z.union([z.string(), z.number()]).nullish(),
  slug: z.string().trim().min(1),
  metaTitle: optionalText,
  metaDescription: optionalText,
  pinterestImageLink: optionalText,
});

const listSchema = z.object({
  blogs: z.array(summarySchema),
  total: z.number().int().min(0),
});

const detailSchema = z.object({
  slug: optionalText,
  metaTitle: optionalText,
  metaDescription: optionalText,
  date: optionalText,
  blog: optionalText,
  pinterestImageLink: optionalText,
  youtubeShortsUrl: optionalText,
  shortTailKeywords: optionalText,
  longTailKeywords: optionalText,
  /** Not in the spec's contract; shown when the API sends it. */
  author: optionalText,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The detail object out of the answer. Accepted: the object itself (the contract), the object
 * wrapped as `{ data: object }`, and an array of one object (either of them as `{ data: [object] }`
 * too), as such functions often answer. No data (`null`, `{}`, `[]`, `{ data: null }`) is null.
 * An array of several posts is a wrong answer.
 */
function unwrapDetail(body: unknown): unknown {
  let value = body;
  if (isRecord(value) && "data" in value && !("slug" in value) && !("metaTitle" in value)) {
    value = value.data;
  }
  if (Array.isArray(value)) {
    if (value.length > 1) return value;
    value = value[0];
  }
  if (value === null || value === undefined) return null;
  if (isRecord(value) && Object.keys(value).length === 0) return null;
  return value;
}

function orEmpty(value: string | null | undefined): string {
  return value?.trim() ?? "";
}

export interface HostedBlogOptions {
  /** The functions' base address, e.g. https://project.example.net/functions/v1 */
  apiUrl: string;
  apiKey: string;
  /** The site's address: its host (without "www.") is the `domain` asked for. */
  siteUrl: string;
  /** How long one request may take, answer included. */
  timeoutMs?: number;
  /** How long an answer is reused. */
  cacheTtlMs?: number;
  /** Most list pages, and most posts, kept; the oldest goes first. */
  cacheSize?: number;
}

/** Answers kept for `ttlMs`, at most `size` of them; a failed request is not kept. */
function createCache<T>(ttlMs: number, size: number) {
  const entries = new Map<string, { expires: number; value: Promise<T> }>();
  return (key: string, load: () => Promise<T>): Promise<T> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    entries.delete(key);
    // Requests for the same key at the same time share one call.
    const value = load();
    entries.set(key, { expires: now + ttlMs, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    while (entries.size > size) {
      const oldest = entries.keys().next();
      if (oldest.done) break;
      entries.delete(oldest.value);
    }
    return value;
  };
}

export function createHostedBlogSource(options: HostedBlogOptions): BlogSource {
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const domain = new URL(options.siteUrl).hostname.replace(/^www\./i, "");
  const timeoutMs = options.timeoutMs ?? 8_000;
  const ttlMs = options.cacheTtlMs ?? 60_000;
  const size = options.cacheSize ?? 200;
  const cachedPage = createCache<BlogPage>(ttlMs, size);
  const cachedPost = createCache<BlogPost | null>(ttlMs, size);
  const headers = { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" };

  /** The answer's JSON; any failure is a BlogSourceError with `failed` (and why, for bad answers). */
  async function getJson(url: URL, failed: string): Promise<unknown> {
    let body: string;
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`the blog service answered HTTP ${response.status}`);
      }
      body = await response.text();
    } catch (cause) {
      throw new BlogSourceError(failed, { cause });
    }
    try {
      return JSON.parse(body) as unknown;
    } catch (cause) {
      throw new BlogSourceError(`${failed}: ${NOT_JSON}`, { cause });
    }
  }

  async function fetchPage(page: number): Promise<BlogPage> {
    const url = new URL(`${apiUrl}/get_metainfo`);
    url.searchParams.set("domain", domain);
    url.searchParams.set("page", String(page));
    const parsed = listSchema.safeParse(await getJson(url, LIST_FAILED));
    if (!parsed.success) {
      throw new BlogSourceError(`${LIST_FAILED}: ${WRONG_SHAPE}`, { cause: parsed.error });
    }
    const posts = parsed.data.blogs.map((b): BlogPostSummary => ({
      slug: b.slug.trim(),
      title: plainText(b.metaTitle) || plainText(b.slug),
      description: plainText(b.metaDescription),
      image: imageAddress(b.pinterestImageLink),
      date: null,
    }));
    // A total smaller than what the pages hold would hide this page's posts.
    const total = Math.max(parsed.data.total, (page - 1) * BLOG_PAGE_SIZE + posts.length);
    return { posts, total };
  }

  async function fetchPost(slug: string): Promise<BlogPost | null> {
    const url = new URL(`${apiUrl}/get_details`);
    url.searchParams.set("slug", slug);
    const value = unwrapDetail(await getJson(url, DETAILS_FAILED));
    if (value === null) return null;
    const parsed = detailSchema.safeParse(value);
    if (!parsed.success) {
      throw new BlogSourceError(`${DETAILS_FAILED}: ${WRONG_SHAPE}`, { cause: parsed.error });
    }
    const d = parsed.data;
    // An object with none of a post's fields is no post.
    if (!orEmpty(d.slug) && !orEmpty(d.metaTitle) && !orEmpty(d.blog)) return null;
    const postSlug = orEmpty(d.slug) || slug;
    return {
      slug: postSlug,
      title: plainText(d.metaTitle) || plainText(postSlug),
      description: plainText(d.metaDescription),
      image: imageAddress(d.pinterestImageLink),
      date: d.date ? publicationDate(d.date) : null,
      author: plainText(d.author) || null,
      html: sanitizeHtml(d.blog ?? "", options.siteUrl),
      video: orEmpty(d.youtubeShortsUrl) || null,
      shortTailKeywords: plainText(d.shortTailKeywords),
      longTailKeywords: plainText(d.longTailKeywords),
    };
  }

  return {
    list: (page) => cachedPage(String(page), () => fetchPage(page)),
    get: (slug) => cachedPost(slug, () => fetchPost(slug)),
  };
}
