// What staff set in the newsroom: pins, corrections, block rules, banner, media, posts.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { PostFields } from "../../../shared/post-fields";
import { timestamps } from "./columns";
import { articles, feeds } from "./news";

/**
 * Stories staff pinned to the top of the home page's slider and Today's Headlines, in `position`
 * order, until `expires_at`.
 */
export const storyPins = pgTable("story_pins", {
  articleId: text("article_id")
    .primaryKey()
    .references(() => articles.id, { onDelete: "cascade" }),
  position: integer("position").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  ...timestamps,
});

/** Dated correction notes on stories, shown on the article and listed at /corrections. */
export const corrections = pgTable(
  "corrections",
  {
    id: serial("id").primaryKey(),
    articleId: text("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("corrections_article_idx").on(t.articleId),
    index("corrections_published_idx").on(
      t.publishedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * Staff's block rules (as Miniflux's): an item of the feed (or of any feed, when `feed_id` is null)
 * whose field matches the pattern is kept out at ingest (server/newsroom/block-rules.ts).
 */
export const blockRules = pgTable("block_rules", {
  id: serial("id").primaryKey(),
  feedId: integer("feed_id").references(() => feeds.id, { onDelete: "cascade" }),
  /** `title`, `author`, `link` or `any` of them. */
  field: text("field").notNull(),
  /** Words or a phrase, `*` standing for any run of characters; matched whole-word, any case. */
  pattern: text("pattern").notNull(),
  ...timestamps,
});

/**
 * The Breaking banner staff set in the newsroom (decision 027): one row at most (`id` is always 1).
 * The home page shows it until `expires_at`; without a live one, content/site.yaml's `breaking`.
 */
export const breakingBanner = pgTable(
  "breaking_banner",
  {
    id: integer("id").primaryKey().default(1),
    text: text("text").notNull(),
    /** An http(s) address or a path on the site; null for a banner without a link. */
    link: text("link"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The e-mail of the member who set it. */
    setBy: text("set_by").notNull(),
    setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("breaking_banner_one_row", sql`${t.id} = 1`)],
);

/**
 * Pictures staff uploaded in the newsroom (decision 028): the original, checked and stripped of its
 * metadata, is in the picture store under `hash`, like a feed picture; pages crop it around the
 * focal point (percent of its width and height) staff chose.
 */
export const newsroomMedia = pgTable(
  "newsroom_media",
  {
    id: serial("id").primaryKey(),
    hash: text("hash").notNull().unique(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** `#rrggbb`, shown while the picture loads. */
    color: text("color").notNull(),
    focusX: integer("focus_x").notNull().default(50),
    focusY: integer("focus_y").notNull().default(50),
    alt: text("alt").notNull().default(""),
    credit: text("credit").notNull().default(""),
    /** The file's name on the writer's device, to find it again in the library. */
    filename: text("filename").notNull().default(""),
    bytes: integer("bytes").notNull(),
    uploadedBy: text("uploaded_by").notNull(),
    ...timestamps,
  },
  (t) => [index("newsroom_media_created_idx").on(t.createdAt.desc().nullsFirst(), t.id)],
);

/**
 * The publication's own stories and blog posts, written in the newsroom (decision 028). `draft` is
 * the working copy every save and autosave writes, never shown to readers; `live` is the copy
 * readers see while `status` is `published`. A published story is also an `articles` row
 * (`article_id`), so every list, feed and sitemap shows it as it shows a feed story.
 */
export const newsroomPosts = pgTable(
  "newsroom_posts",
  {
    id: serial("id").primaryKey(),
    /** `story` or `blog`. */
    kind: text("kind").notNull(),
    draft: jsonb("draft").$type<PostFields>().notNull(),
    live: jsonb("live").$type<PostFields>(),
    /** `draft`, `scheduled`, `published` or `unpublished`. */
    status: text("status").notNull().default("draft"),
    /** When a scheduled post goes live. */
    publishAt: timestamp("publish_at", { withTimezone: true }),
    /** The date readers see: set when it first went live, kept through later updates. */
    firstPublishedAt: timestamp("first_published_at", { withTimezone: true }),
    /** A blog post's address, /blog/<slug>: fixed once it has been published. */
    slug: text("slug").unique(),
    /** A story's `articles` row, made when it first went live and kept (its address stays). */
    articleId: text("article_id").unique(),
    createdBy: text("created_by").notNull(),
    updatedBy: text("updated_by").notNull(),
    ...timestamps,
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("newsroom_posts_due_idx")
      .on(t.publishAt)
      .where(sql`${t.status} = 'scheduled'`),
    index("newsroom_posts_updated_idx").on(t.updatedAt.desc().nullsFirst(), t.id),
    index("newsroom_posts_live_blog_idx")
      .on(t.firstPublishedAt.desc().nullsFirst(), t.id)
      .where(sql`${t.kind} = 'blog' AND ${t.status} = 'published'`),
  ],
);

/** Every save of a post: who, when, and the whole text as it was (compared and restored). */
export const newsroomRevisions = pgTable(
  "newsroom_revisions",
  {
    id: serial("id").primaryKey(),
    postId: integer("post_id")
      .notNull()
      .references(() => newsroomPosts.id, { onDelete: "cascade" }),
    fields: jsonb("fields").$type<PostFields>().notNull(),
    /** `save`, `autosave` (one kept per writer and sitting), `publish`, `restore`. */
    kind: text("kind").notNull(),
    staffId: integer("staff_id"),
    staffEmail: text("staff_email").notNull(),
    ...timestamps,
  },
  (t) => [index("newsroom_revisions_post_idx").on(t.postId, t.id)],
);
