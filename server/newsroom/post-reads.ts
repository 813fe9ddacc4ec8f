import { diffWords } from "diff";
import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import {
  POST_FIELD_LABELS,
  type PostFields,
  type PostKind,
  type PostStatus,
} from "../../shared/post-fields";
import type { Database } from "../db/client";
import { newsroomMedia, newsroomPosts, newsroomRevisions } from "../db/schema";
import { bodyAsMarkdown } from "./post-body";
import { likeText } from "./story-reads";
import { tidy } from "./text";

/** What the newsroom's writing screens read: the list of posts, one post, its revisions, the library. */

export const POSTS_PAGE_SIZE = 30;
export const MEDIA_PAGE_SIZE = 24;

export interface PostListItem {
  id: number;
  kind: PostKind;
  status: PostStatus;
  title: string;
  updatedAt: Date;
  updatedBy: string;
  publishAt: Date | null;
  /** Where readers find it while published. */
  siteLink: string | null;
}

export function siteLinkOf(post: {
  kind: string;
  status: string;
  slug: string | null;
  articleId: string | null;
}): string | null {
  if (post.status !== "published") return null;
  if (post.kind === "blog" && post.slug) return `/blog/${post.slug}`;
  if (post.kind === "story" && post.articleId) return `/article/${post.articleId}`;
  return null;
}

/** Newest change first, `POSTS_PAGE_SIZE` a page, optionally of one kind or status. */
export async function listPosts(
  db: Database,
  filter: { kind?: PostKind; status?: PostStatus; page?: number },
): Promise<{ posts: PostListItem[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.kind) conditions.push(eq(newsroomPosts.kind, filter.kind));
  if (filter.status) conditions.push(eq(newsroomPosts.status, filter.status));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const page = Math.max(1, filter.page ?? 1);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(newsroomPosts)
      .where(where)
      .orderBy(desc(newsroomPosts.updatedAt), desc(newsroomPosts.id))
      .limit(POSTS_PAGE_SIZE)
      .offset((page - 1) * POSTS_PAGE_SIZE),
    db.$count(newsroomPosts, where),
  ]);
  return {
    posts: rows.map((row) => ({
      id: row.id,
      kind: row.kind as PostKind,
      status: row.status as PostStatus,
      title: row.draft.title,
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
      publishAt: row.publishAt,
      siteLink: siteLinkOf(row),
    })),
    total,
  };
}

export type PostRecord = typeof newsroomPosts.$inferSelect & {
  kind: PostKind;
  status: PostStatus;
};

export async function postById(db: Database, id: number): Promise<PostRecord | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db.select().from(newsroomPosts).where(eq(newsroomPosts.id, id));
  return row ? (row as PostRecord) : null;
}

export interface RevisionItem {
  id: number;
  kind: string;
  staffEmail: string;
  at: Date;
  title: string;
}

export async function revisionsOf(db: Database, postId: number): Promise<RevisionItem[]> {
  const rows = await db
    .select()
    .from(newsroomRevisions)
    .where(eq(newsroomRevisions.postId, postId))
    .orderBy(desc(newsroomRevisions.id))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    staffEmail: row.staffEmail,
    at: row.createdAt,
    title: row.fields.title,
  }));
}

export async function revisionById(db: Database, postId: number, id: number) {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db
    .select()
    .from(newsroomRevisions)
    .where(and(eq(newsroomRevisions.postId, postId), eq(newsroomRevisions.id, id)));
  return row ?? null;
}

/** One changed field: its label and the words taken out and put in. */
export interface FieldChange {
  field: keyof PostFields;
  label: string;
  parts: { text: string; change: "same" | "added" | "removed" }[];
}

const asText = (field: keyof PostFields, fields: PostFields): string => {
  const value = fields[field];
  if (field === "bodyHtml") return bodyAsMarkdown(fields.bodyHtml);
  if (Array.isArray(value)) return value.join(", ");
  return value === null ? "" : String(value);
};

/** What changed from `older` to `newer`, field by field, word by word (jsdiff). */
export function compareFields(older: PostFields, newer: PostFields): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of Object.keys(POST_FIELD_LABELS) as (keyof PostFields)[]) {
    const before = asText(field, older);
    const after = asText(field, newer);
    if (before === after) continue;
    changes.push({
      field,
      label: POST_FIELD_LABELS[field],
      parts: diffWords(before, after).map((part) => ({
        text: part.value,
        change: part.added ? "added" : part.removed ? "removed" : "same",
      })),
    });
  }
  return changes;
}

export type MediaItem = typeof newsroomMedia.$inferSelect;

/**
 * The library, newest first, `MEDIA_PAGE_SIZE` a page after the item `before` (keyset paging), or
 * those whose alt text, credit or file name has the words of `query`.
 */
export async function listMedia(
  db: Database,
  options: { query?: string; before?: number; limit?: number } = {},
): Promise<MediaItem[]> {
  const conditions: SQL[] = [];
  const query = tidy(options.query ?? "").slice(0, 100);
  for (const word of query.split(" ").filter(Boolean).slice(0, 5)) {
    const pattern = likeText(word);
    const match = or(
      ilike(newsroomMedia.alt, pattern),
      ilike(newsroomMedia.credit, pattern),
      ilike(newsroomMedia.filename, pattern),
    );
    if (match) conditions.push(match);
  }
  if (options.before) conditions.push(lt(newsroomMedia.id, options.before));
  return db
    .select()
    .from(newsroomMedia)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(newsroomMedia.id))
    .limit(options.limit ?? MEDIA_PAGE_SIZE);
}

export async function mediaById(db: Database, id: number): Promise<MediaItem | null> {
  if (!Number.isSafeInteger(id)) return null;
  const [row] = await db.select().from(newsroomMedia).where(eq(newsroomMedia.id, id));
  return row ?? null;
}
