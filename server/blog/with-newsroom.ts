import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import {
  asArticlePicture,
  uploadedPicture,
  variantPath,
  type StoredPicture,
} from "../../shared/picture";
import { topicsOf } from "../../shared/post-fields";
import type { Database } from "../db/client";
import { newsroomMedia, newsroomPosts } from "../db/schema";
import type { Logger } from "../logger";
import { bylineText } from "../newsroom/post-live";
import { blogErrorMessage } from "./load";
import {
  BLOG_PAGE_SIZE,
  newestFirst,
  summaryOf,
  type BlogPage,
  type BlogPost,
  type BlogPostSummary,
  type BlogSource,
} from "./source";

/**
 * The blog readers see: the newsroom's own published blog posts (decision 028) beside the
 * configured source's (decision 006), as one list, newest first. The newsroom's are few and in
 * our database; the source's are read a page at a time, and only the pages that can reach the
 * page asked for are read. A newsroom post answers its address before a source post of the same
 * slug.
 */

export interface WithNewsroomOptions {
  /** Where a source that could not answer is reported, when the list shows the newsroom's alone. */
  logger: Logger;
}

/** A live newsroom post as the list orders it. */
interface Key {
  id: number;
  slug: string;
  date: string;
}

const LIVE_BLOG = and(
  eq(newsroomPosts.kind, "blog"),
  eq(newsroomPosts.status, "published"),
  isNotNull(newsroomPosts.live),
  isNotNull(newsroomPosts.slug),
  isNotNull(newsroomPosts.firstPublishedAt),
);

/** How many of `keys` (in list order) come before `post`. */
function countBefore(keys: readonly Key[], post: BlogPostSummary): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const key = keys[middle];
    if (key && newestFirst(key, post) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

async function liveKeys(db: Database): Promise<Key[]> {
  const rows = await db
    .select({
      id: newsroomPosts.id,
      slug: newsroomPosts.slug,
      firstPublishedAt: newsroomPosts.firstPublishedAt,
    })
    .from(newsroomPosts)
    .where(LIVE_BLOG);
  // Sorted here, not in SQL: the database's collation need not order slugs as the sources do.
  return rows
    .flatMap((r) =>
      r.slug && r.firstPublishedAt
        ? [{ id: r.id, slug: r.slug, date: r.firstPublishedAt.toISOString() }]
        : [],
    )
    .sort(newestFirst);
}

/** The live posts with these ids (or this slug), each with its upload's row when it has one. */
function livePosts(db: Database, which: { ids: number[] } | { slug: string }) {
  return db
    .select({ post: newsroomPosts, media: newsroomMedia })
    .from(newsroomPosts)
    .leftJoin(
      newsroomMedia,
      sql`${newsroomMedia.id} = (${newsroomPosts.live} ->> 'mediaId')::integer`,
    )
    .where(
      and(
        LIVE_BLOG,
        "ids" in which ? inArray(newsroomPosts.id, which.ids) : eq(newsroomPosts.slug, which.slug),
      ),
    );
}

type LiveRow = Awaited<ReturnType<typeof livePosts>>[number];

/** An upload as pages draw it: our copies, cut around its focal point. */
function uploadPicture(media: NonNullable<LiveRow["media"]>): StoredPicture | null {
  const picture = asArticlePicture(uploadedPicture(media));
  return picture?.kind === "stored" ? picture : null;
}

/** A newsroom post as the blog shows it; `live` holds what readers see. */
export function newsroomBlogPost({ post, media }: LiveRow): BlogPost | null {
  const fields = post.live;
  if (!fields || !post.slug || !post.firstPublishedAt) return null;
  const picture = media ? uploadPicture(media) : null;
  return {
    slug: post.slug,
    title: fields.title,
    description: fields.description,
    // The address the search copy keeps for it (server/newsroom/posts.ts).
    image: picture ? variantPath(picture.hash, 1200, "jpeg") : null,
    date: post.firstPublishedAt.toISOString(),
    ...(picture ? { picture } : {}),
    author: bylineText(fields.bylines) || null,
    bylines: fields.bylines,
    // Sanitised when it was saved (server/newsroom/post-body.ts).
    html: fields.bodyHtml,
    video: fields.videoUrl || null,
    shortTailKeywords: fields.shortTailKeywords,
    longTailKeywords: fields.longTailKeywords,
    pictureAlt: fields.pictureAlt,
    pictureCredit: fields.pictureCredit,
    topics: topicsOf(fields),
  };
}

async function summariesOf(db: Database, keys: readonly Key[]): Promise<BlogPostSummary[]> {
  if (keys.length === 0) return [];
  const rows = await livePosts(db, { ids: keys.map((k) => k.id) });
  const byId = new Map(rows.map((row) => [row.post.id, row]));
  return keys.flatMap((key) => {
    const row = byId.get(key.id);
    const post = row ? newsroomBlogPost(row) : null;
    return post ? [summaryOf(post)] : [];
  });
}

/**
 * `source`'s posts with the newsroom's published blog posts among them. When `source` cannot
 * answer, a page that holds newsroom posts lists them alone, says why in `failure` and logs it;
 * a page that would hold none fails as the source did. The database failing fails the list.
 */
export function withNewsroomPosts(
  db: Database,
  source: BlogSource,
  options: WithNewsroomOptions,
): BlogSource {
  async function list(page: number): Promise<BlogPage> {
    const keys = await liveKeys(db);
    const start = (page - 1) * BLOG_PAGE_SIZE;
    const end = start + BLOG_PAGE_SIZE;
    if (start < 0) return { posts: [], total: keys.length };

    // Merged, a source post's place is its own plus the newsroom posts before it, at most all of
    // them: only the source's posts from `start - keys.length` on can fall on this page.
    const firstPage = Math.floor(Math.max(0, start - keys.length) / BLOG_PAGE_SIZE) + 1;
    const base = (firstPage - 1) * BLOG_PAGE_SIZE;
    const fetched: BlogPostSummary[] = [];
    let sourceTotal = 0;
    try {
      for (let p = firstPage; p <= page; p++) {
        const answer = await source.list(p);
        sourceTotal = answer.total;
        fetched.push(...answer.posts);
        if (answer.posts.length < BLOG_PAGE_SIZE || base + fetched.length >= end) break;
      }
    } catch (error) {
      const alone = keys.slice(start, end);
      if (alone.length === 0) throw error;
      options.logger.error(
        { err: error, page },
        "the blog source could not be read: the list shows the newsroom's posts alone",
      );
      return {
        posts: await summariesOf(db, alone),
        total: keys.length,
        failure: blogErrorMessage(error),
      };
    }

    // Each fetched source post's place in the merged list. The running maximum keeps the places
    // rising should the source's order and dates disagree.
    let newsroomBefore = 0;
    const places = fetched.map((post, i) => {
      newsroomBefore = Math.max(newsroomBefore, countBefore(keys, post));
      return base + i + newsroomBefore;
    });
    const sourceBefore = Math.min(base, sourceTotal);
    const chosen: ({ from: "source"; post: BlogPostSummary } | { from: "newsroom"; key: Key })[] =
      [];
    let next = 0;
    for (let place = start; place < end; place++) {
      while (next < places.length && (places[next] ?? 0) < place) next++;
      const post = fetched[next];
      if (post && places[next] === place) {
        chosen.push({ from: "source", post });
        continue;
      }
      // Every other place is the newsroom's, in its order.
      const key = keys[place - sourceBefore - next];
      if (!key) break;
      chosen.push({ from: "newsroom", key });
    }

    const ours = await summariesOf(
      db,
      chosen.flatMap((c) => (c.from === "newsroom" ? [c.key] : [])),
    );
    const bySlug = new Map(ours.map((p) => [p.slug, p]));
    return {
      posts: chosen.flatMap((c) => {
        if (c.from === "source") return [c.post];
        const post = bySlug.get(c.key.slug);
        return post ? [post] : [];
      }),
      total: keys.length + sourceTotal,
    };
  }

  return {
    list,
    async get(slug: string): Promise<BlogPost | null> {
      const [row] = await livePosts(db, { slug });
      return (row && newsroomBlogPost(row)) ?? source.get(slug);
    },
  };
}
