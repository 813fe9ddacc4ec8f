import { and, eq, sql } from "drizzle-orm";
import { withoutBodyVideos } from "../../shared/body-videos";
import {
  BLOG_KEY,
  blogPostKey,
  SEARCH_KEY,
  SITEMAPS_KEY,
  storyChangeKeys,
} from "../../shared/cache-keys";
import { uploadedPicture, type StoredPicture } from "../../shared/picture";
import type { Database } from "../db/client";
import { articles, blogPosts, newsroomMedia, newsroomPosts } from "../db/schema";
import { SANITIZE_POLICY_VERSION, stripTags } from "../ingest/sanitize";
import { slugFor } from "./post-form";
import type { PostRow } from "./posts";

/**
 * A post's live copy, what readers see (decision 028): publishing copies the draft to an `articles`
 * row (a story) or a `blogPosts` row (a blog post); unpublishing takes it off the site. Each answers
 * the cache keys of the pages that changed. The actions that call them are in posts.ts.
 */

/** What an unpublished story's address says (it answers 410 Gone, as a story taken down does). */
export const UNPUBLISHED_REASON = "Unpublished by the newsroom.";

/** The top picture of an upload, as pages draw it, with its focal point. */
export async function mediaPicture(tx: Database, mediaId: number): Promise<StoredPicture | null> {
  const [media] = await tx.select().from(newsroomMedia).where(eq(newsroomMedia.id, mediaId));
  return media ? uploadedPicture(media) : null;
}

/** Names as a byline reads them: "A", "A and B", "A, B and C". */
export function bylineText(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The pages a blog post is on: its own, the blog's list and feed, the sitemaps and search. */
const blogPostKeys = (slug: string) => [blogPostKey(slug), BLOG_KEY, SITEMAPS_KEY, SEARCH_KEY];

/** Copies the draft to what readers see; answers the keys of the pages that changed. */
export async function goLive(
  tx: Database,
  siteUrl: string,
  post: PostRow,
  now: Date,
): Promise<string[]> {
  const fields = post.draft;
  const firstPublishedAt = post.firstPublishedAt ?? now;
  let articleId = post.articleId;
  let slug = post.slug;
  let purge: string[];
  const picture = fields.mediaId === null ? null : await mediaPicture(tx, fields.mediaId);
  if (post.kind === "story") {
    articleId ??= `${slugFor("", fields, post.id).slice(0, 60).replace(/-+$/, "")}-n${post.id}`;
    const row = {
      category: fields.category ?? "local-news",
      title: fields.title,
      excerpt:
        fields.dek ||
        fields.description ||
        stripTags(withoutBodyVideos(fields.bodyHtml)).slice(0, 300),
      content: fields.bodyHtml,
      sanitizePolicy: SANITIZE_POLICY_VERSION,
      picture,
      picturesListed: true,
      defaultPicture: picture === null,
      author: bylineText(fields.bylines) || "Staff",
      bylines: fields.bylines,
      pictureAlt: fields.pictureAlt || null,
      pictureCredit: fields.pictureCredit || null,
      own: true,
      publishedAt: firstPublishedAt,
      updatedAt: now,
      // Published again after being unpublished: back on the site. A take-down stays.
      ...(post.status === "unpublished" ? { takenDownAt: null, takedownReason: null } : {}),
    };
    await tx
      .insert(articles)
      .values({ id: articleId, link: `${siteUrl.replace(/\/$/, "")}/article/${articleId}`, ...row })
      .onConflictDoUpdate({ target: articles.id, set: row });
    // Published before under another category: that category's lists drop it.
    const before = post.live?.category;
    purge = storyChangeKeys(
      [{ id: articleId, category: row.category }],
      before && before !== row.category ? [before] : [],
    );
  } else {
    slug ??= await freeSlug(tx, slugFor("", fields, post.id), post.id);
    const row = {
      title: fields.title,
      description: fields.description,
      image: picture ? `/images/${picture.hash}/1200.jpg` : null,
      publishedAt: firstPublishedAt,
      updatedAt: now,
    };
    await tx
      .insert(blogPosts)
      .values({ slug, ...row })
      .onConflictDoUpdate({ target: blogPosts.slug, set: row });
    purge = blogPostKeys(slug);
  }
  await tx
    .update(newsroomPosts)
    .set({
      status: "published",
      live: fields,
      publishAt: null,
      firstPublishedAt,
      articleId,
      slug,
      updatedAt: now,
    })
    .where(eq(newsroomPosts.id, post.id));
  return purge;
}

/** `wanted`, or it with a number added when another post has it. */
async function freeSlug(tx: Database, wanted: string, id: number): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? wanted : `${wanted}-${n}`;
    const [taken] = await tx
      .select({ id: newsroomPosts.id })
      .from(newsroomPosts)
      .where(and(eq(newsroomPosts.slug, candidate), sql`${newsroomPosts.id} <> ${id}`))
      .limit(1);
    if (!taken) return candidate;
  }
}

/** Takes the live copy off the site; answers the keys of the pages that changed. */
export async function takeOffSite(tx: Database, post: PostRow, now: Date): Promise<string[]> {
  if (post.kind === "story" && post.articleId) {
    const taken = await tx
      .update(articles)
      .set({ takenDownAt: now, takedownReason: UNPUBLISHED_REASON })
      .where(and(eq(articles.id, post.articleId), sql`${articles.takenDownAt} IS NULL`))
      .returning({ id: articles.id, category: articles.category });
    return storyChangeKeys(taken);
  }
  if (post.kind === "blog" && post.slug) {
    await tx.delete(blogPosts).where(eq(blogPosts.slug, post.slug));
    return blogPostKeys(post.slug);
  }
  return [];
}
