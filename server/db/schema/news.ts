// The news: feeds, articles, story groups, archive counts, search words, pictures, blog posts.
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { ArticlePicture } from "../../../shared/picture";
import { timestamps } from "./columns";

/** PostgreSQL's full-text document type; rows fill it themselves (a generated column). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The text search configuration of every document and query: English stemming after `unaccent`,
 * so "cafe" finds "Café" (made in migration 0015).
 */
export const SEARCH_CONFIG = "english_unaccent";

/** Title words weigh more than the rest, so a headline match ranks first. */
const weightedDocument = (title: string, body: string) =>
  sql.raw(
    `setweight(to_tsvector('${SEARCH_CONFIG}'::regconfig, coalesce(${title}, '')), 'A') || setweight(to_tsvector('${SEARCH_CONFIG}'::regconfig, coalesce(${body}, '')), 'B')`,
  );

/** A feed we read, with the state of its last fetches. */
export const feeds = pgTable("feeds", {
  id: serial("id").primaryKey(),
  url: text("url").notNull().unique(),
  category: text("category").notNull(),
  title: text("title"),
  etag: text("etag"),
  lastModified: text("last_modified"),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  lastStatus: integer("last_status"),
  lastError: text("last_error"),
  /** What the last attempt came to (FeedOutcome in server/ingest/ingest.ts). */
  lastOutcome: text("last_outcome"),
  /** Items the last stored read held (after keeping the newest). */
  lastItemCount: integer("last_item_count"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
  dead: boolean("dead").notNull().default(false),
  ...timestamps,
});

/**
 * An article built from a feed item. `id` is derived from the item (never from a timestamp),
 * so `/article/{id}` stays valid across runs and machines.
 */
export const articles = pgTable(
  "articles",
  {
    id: text("id").primaryKey(),
    feedId: integer("feed_id").references(() => feeds.id, { onDelete: "set null" }),
    category: text("category").notNull(),
    guid: text("guid"),
    link: text("link").notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    content: text("content").notNull(),
    /** The SANITIZE_POLICY_VERSION `content` was sanitised with; older rows are sanitised again. */
    sanitizePolicy: integer("sanitize_policy").notNull().default(0),
    /** The feed's picture address, absolute http(s); null means the bundled default picture. */
    image: text("image"),
    /**
     * How pages show `image`: kept by us (its hash, size and colour, copied from `pictures` by the
     * picture pass) or a file of our own site; null until then, or when it cannot be had.
     */
    picture: jsonb("picture").$type<ArticlePicture>(),
    /** False until the picture pass has listed this version's pictures in `article_pictures`. */
    picturesListed: boolean("pictures_listed").notNull().default(false),
    author: text("author").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    /**
     * The feed's own headline while staff override `title` (which pages, search and feeds show);
     * null when the headline is the feed's. Ingest writes a changed headline here, never over theirs.
     */
    feedTitle: text("feed_title"),
    /** Staff chose the bundled default picture over the feed's: the picture pass leaves `picture` null. */
    defaultPicture: boolean("default_picture").notNull().default(false),
    /**
     * When staff took the story down (server/newsroom/stories.ts): no public page, list, search, feed
     * or sitemap shows it, its address answers 410, and ingest updates it without bringing it back.
     */
    takenDownAt: timestamp("taken_down_at", { withTimezone: true }),
    takedownReason: text("takedown_reason"),
    /** The publication's own story, written in the newsroom (newsroom_posts), not a feed's. */
    own: boolean("own").notNull().default(false),
    /** An own story's bylines, one staff name each; null for a feed story (`author` says it). */
    bylines: text("bylines").array(),
    /** An own story's picture words; a feed story's picture is credited to its outlet. */
    pictureAlt: text("picture_alt"),
    pictureCredit: text("picture_credit"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    search: tsvector("search").generatedAlwaysAs(weightedDocument("title", "excerpt")),
    /**
     * The story group this article is one version of (other feeds carrying the same event, issue
     * #36, decision 032); null when it stands alone. Kept by server/grouping/store.ts.
     */
    storyGroup: text("story_group").references((): AnyPgColumn => storyGroups.id, {
      onDelete: "set null",
    }),
    /** Lists of every category show it: alone, or its group's lead. */
    groupLead: boolean("group_lead").notNull().default(true),
    /** Lists of its category show it: alone, or the first of its group in its category. */
    categoryLead: boolean("category_lead").notNull().default(true),
    /** The outlets of the group's other versions on the site (host names), oldest first; null alone. */
    alsoCoveredBy: text("also_covered_by").array(),
  },
  (t) => [
    uniqueIndex("articles_link_unique").on(t.link),
    index("articles_search_idx").using("gin", t.search),
    // NULLS FIRST matches a plain `ORDER BY published_at DESC`, so the planner can walk the index.
    // Only stories on the site: public reads say `taken_down_at IS NULL` (LIVE) and walk these.
    index("articles_category_published_idx")
      .on(t.category, t.publishedAt.desc().nullsFirst())
      .where(sql`${t.takenDownAt} IS NULL`),
    index("articles_published_idx")
      .on(t.publishedAt.desc().nullsFirst())
      .where(sql`${t.takenDownAt} IS NULL`),
    index("articles_taken_down_idx")
      .on(t.takenDownAt.desc())
      .where(sql`${t.takenDownAt} IS NOT NULL`),
    // The article sitemaps: one file per month of first sight, read in this order (decision 030),
    // from the index alone (its last column is the file's lastmod).
    index("articles_first_seen_updated_idx")
      .on(t.firstSeenAt, t.id, t.updatedAt)
      .where(sql`${t.takenDownAt} IS NULL`),
    // When each month's file last changed: one probe per month.
    index("articles_month_updated_idx")
      .on(
        sql`date_trunc('month', ${t.firstSeenAt} AT TIME ZONE 'UTC')`,
        t.updatedAt.desc().nullsFirst(),
      )
      .where(sql`${t.takenDownAt} IS NULL`),
    index("articles_feed_guid_idx").on(t.feedId, t.guid),
    index("articles_story_group_idx")
      .on(t.storyGroup)
      .where(sql`${t.storyGroup} IS NOT NULL`),
    index("articles_sanitize_policy_idx").on(t.sanitizePolicy),
    index("articles_pictures_unlisted_idx")
      .on(t.id)
      .where(sql`NOT ${t.picturesListed}`),
  ],
);

/**
 * Versions of one event from several feeds (issue #36, decision 032): lists show the lead with "also
 * covered by" the others. Formed at ingest by server/grouping; staff choose the lead, split and join.
 */
export const storyGroups = pgTable("story_groups", {
  /** The id of the article the group began with. */
  id: text("id").primaryKey(),
  leadId: text("lead_id").notNull(),
  /** Staff chose the lead: it stays while it is on the site. Otherwise the earliest version leads. */
  leadByStaff: boolean("lead_by_staff").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What staff decided about an article's group, which ingest never undoes: `alone` (split from a wrong
 * match: never grouped by the matcher again) or `joined` (put in a group by hand).
 */
export const storyGroupOverrides = pgTable("story_group_overrides", {
  articleId: text("article_id")
    .primaryKey()
    .references(() => articles.id, { onDelete: "cascade" }),
  decision: text("decision").$type<"alone" | "joined">().notNull(),
  decidedBy: text("decided_by").notNull(),
  decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How many stories on the site each year (in San Diego time) holds, per category: the archives'
 * "Showing N articles", which counting the rows made grow with the year. Kept by triggers on
 * `articles` (migration 0016), for every write wherever it comes from (decision 030).
 */
export const archiveCounts = pgTable(
  "archive_counts",
  {
    year: integer("year").notNull(),
    category: text("category").notNull(),
    articles: integer("articles").notNull(),
  },
  (t) => [primaryKey({ columns: [t.year, t.category] })],
);

/**
 * How many stories on the site were first seen in each month (UTC, "2026-11"): the article
 * sitemaps, one file per month, split in files of 50,000 when a month holds more. Kept by
 * triggers on `articles` (migration 0020), as archive_counts is.
 */
export const sitemapMonths = pgTable("sitemap_months", {
  month: text("month").primaryKey(),
  articles: integer("articles").notNull(),
});

/**
 * Where search's windows of the newest stories begin (decision 035): a row for each window the site
 * holds enough stories for. A window's GIN index, `articles_search_window_<stories>`, is partial
 * on `published_at >= since` with this row's date, and is built anew by `refreshSearchWindows`
 * (server/news/search-window.ts) when the window has grown too far.
 */
export const searchWindows = pgTable("search_windows", {
  stories: integer("stories").primaryKey(),
  since: timestamp("since", { withTimezone: true }).notNull(),
  /** The largest window asked for: a search that finds a page in it reads no older stories. */
  cuts: boolean("cuts").notNull(),
  /** When its index was built: the stories first seen since are those that came into it. */
  builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * When each task of the site's daily upkeep last ran (server/db/upkeep.ts): recorded in the
 * database, so that of several processes, or of `news ingest` runs started by a timer, one runs it
 * once a day.
 */
export const upkeepRuns = pgTable("upkeep_runs", {
  task: text("task").primaryKey(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }).notNull(),
});

/**
 * Every word of the stories' headlines, unaccented and lower-case: what a mistyped query word is
 * corrected to (its closest by pg_trgm). Kept by a trigger on `articles` (migration 0018).
 */
export const searchWords = pgTable("search_words", { word: text("word").primaryKey() }, (t) => [
  index("search_words_trgm_idx").using("gin", sql`${t.word} gin_trgm_ops`),
]);

/**
 * Pictures by address: articles' top pictures, the pictures in their bodies and blog posts' pictures,
 * fetched
 * by the picture pass after each ingest pass (server/images/pass.ts, decision 022). `hash` names the
 * original kept in the picture store; a failed fetch is tried again at `next_attempt_at`.
 */
export const pictures = pgTable(
  "pictures",
  {
    url: text("url").primaryKey(),
    /**
     * How pages show it: kept by us (hash, size, colour) or, for an address on our own origin, that
     * path; null until it is fetched, or when it cannot be used.
     */
    picture: jsonb("picture").$type<ArticlePicture>(),
    /** sha256 of the kept original, so the store's copy is removed with the last address naming it. */
    hash: text("hash"),
    etag: text("etag"),
    lastModified: text("last_modified"),
    /** When the address was last fetched or revalidated, whatever came of it. */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    lastError: text("last_error"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("pictures_hash_idx").on(t.hash),
    index("pictures_next_attempt_idx").on(t.nextAttemptAt),
  ],
);

/** The pictures an article names, its top picture and those in its body, by address. */
export const articlePictures = pgTable(
  "article_pictures",
  {
    articleId: text("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.url] }),
    index("article_pictures_url_idx").on(t.url),
  ],
);

/**
 * The blog's posts as search sees them, copied from the configured blog source (which stays the
 * source of truth for the blog pages) after every ingest pass.
 */
export const blogPosts = pgTable(
  "blog_posts",
  {
    slug: text("slug").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    image: text("image"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    search: tsvector("search").generatedAlwaysAs(weightedDocument("title", "description")),
  },
  (t) => [index("blog_posts_search_idx").using("gin", t.search)],
);
