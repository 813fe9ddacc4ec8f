import fs from "node:fs/promises";
import path from "node:path";
import { Marked } from "marked";
import { z } from "zod";
import { ContentError, splitFrontMatter } from "../content/read";
import { sanitizeHtml } from "../ingest/sanitize";
import type { Logger } from "../logger";
import { imageAddress, plainText, publicationDate } from "./fields";
import {
  BLOG_PAGE_SIZE,
  BlogSourceError,
  newestFirst,
  summaryOf,
  type BlogPage,
  type BlogPost,
  type BlogSource,
} from "./source";

/**
 * Blog posts as Markdown files, one per post: front matter (YAML between `---` lines, read as the
 * content files are), then the body in Markdown. The files change only on deploy, so they are read once, on
 * first use, and kept in memory.
 */

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const text = z.string().transform(plainText).pipe(z.string().min(1, "must not be empty"));

const frontMatterSchema = z.strictObject({
  slug: z.string().regex(SLUG, "must be lower-case letters and digits joined by hyphens"),
  title: text,
  description: text,
  date: z.string().refine((v) => publicationDate(v) !== null, {
    error: "must be a date written YYYY-MM-DD (or an ISO 8601 date and time)",
  }),
  author: text.optional(),
  image: z
    .string()
    .refine((v) => imageAddress(v) !== null, {
      error: "must be an http(s) URL or a path on this site",
    })
    .optional(),
  video: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  shortTailKeywords: z.string().transform(plainText).optional(),
  longTailKeywords: z.string().transform(plainText).optional(),
});

const markdown = new Marked({ gfm: true });

/**
 * One post file read into a post: front matter validated, Markdown rendered and sanitised (links
 * and images resolve against `siteUrl`). Throws ContentError when the file is not a valid post.
 */
export function readPostFile(file: string, source: string, siteUrl: string): BlogPost {
  const { data, body } = splitFrontMatter(file, source);
  // A field written but left empty counts as absent.
  const fields = typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
  const present = Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== null && String(v).trim() !== ""),
  );
  const parsed = frontMatterSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".");
    throw new ContentError(file, field ? `${field} ${issue?.message}` : `${issue?.message}`);
  }
  const meta = parsed.data;
  const name = path.basename(file, ".md");
  if (meta.slug !== name) {
    throw new ContentError(file, `slug "${meta.slug}" must match the file name "${name}.md"`);
  }
  return {
    slug: meta.slug,
    title: meta.title,
    description: meta.description,
    image: imageAddress(meta.image),
    date: publicationDate(meta.date),
    author: meta.author ?? null,
    html: sanitizeHtml(markdown.parse(body, { async: false }), siteUrl),
    video: meta.video ?? null,
    shortTailKeywords: meta.shortTailKeywords ?? "",
    longTailKeywords: meta.longTailKeywords ?? "",
  };
}

export interface LocalBlogOptions {
  /** Where relative links and images in the posts point. */
  siteUrl: string;
  logger: Logger;
}

/**
 * The posts in `dir`. A file that is not a valid post is skipped and logged with the reason: one
 * bad file must not take the blog down. A directory that cannot be read is an error of the source
 * (the page shows it), and is tried again on the next request.
 */
export function createLocalBlogSource(dir: string, options: LocalBlogOptions): BlogSource {
  let loaded: Promise<{ posts: BlogPost[]; bySlug: Map<string, BlogPost> }> | undefined;

  async function load() {
    const names = (await fs.readdir(dir)).filter((n) => n.endsWith(".md") && !n.startsWith("."));
    const posts: BlogPost[] = [];
    for (const name of names.sort()) {
      const file = path.join(dir, name);
      try {
        posts.push(readPostFile(name, await fs.readFile(file, "utf8"), options.siteUrl));
      } catch (error) {
        if (!(error instanceof ContentError)) throw error;
        options.logger.error({ file }, `Blog post skipped: ${error.message}`);
      }
    }
    posts.sort(newestFirst);
    return { posts, bySlug: new Map(posts.map((p) => [p.slug, p])) };
  }

  async function all(message: string) {
    loaded ??= load();
    try {
      return await loaded;
    } catch (cause) {
      loaded = undefined;
      throw new BlogSourceError(message, { cause });
    }
  }

  return {
    async list(page: number): Promise<BlogPage> {
      const { posts } = await all("Failed to fetch blogs");
      const start = (page - 1) * BLOG_PAGE_SIZE;
      return {
        posts: start < 0 ? [] : posts.slice(start, start + BLOG_PAGE_SIZE).map(summaryOf),
        total: posts.length,
      };
    },
    async get(slug: string): Promise<BlogPost | null> {
      const { bySlug } = await all("Failed to fetch blog details");
      return bySlug.get(slug) ?? null;
    },
  };
}
