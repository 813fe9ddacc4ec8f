import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
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
  uuid,
} from "drizzle-orm/pg-core";
import type { ArticlePicture } from "../../shared/picture";
import type { PostFields } from "../../shared/post-fields";

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

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
};

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

/**
 * Newsletter readers (decision 026). An address signs up `pending`, is `confirmed` from the link in
 * its confirmation mail and `unsubscribed` from any mail's link; only confirmed ones get the digest.
 */
export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: serial("id").primaryKey(),
    /** Normalised: trimmed and lower-cased. */
    email: text("email").notNull().unique(),
    /** Names the subscriber in unsubscribe links: random, so a link tells nothing of the list. */
    publicId: uuid("public_id").notNull().defaultRandom().unique(),
    /** `pending`, `confirmed` or `unsubscribed`. */
    status: text("status").notNull().default("pending"),
    /** sha256 of the confirmation link's random token; null once used (or never sent). */
    confirmTokenHash: text("confirm_token_hash").unique(),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    /** When the last confirmation mail was sent: another waits NEWSLETTER_RESEND_MINUTES. */
    confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("newsletter_subscribers_status_idx").on(t.status, t.id)],
);

/**
 * Confirmation mails sent, by mailbox (the address with any `+tag` taken out): the resend interval
 * and the hourly cap count here, so `+tag` spellings of one address share one allowance. Rows older
 * than both are removed as new ones are added.
 */
export const newsletterConfirmations = pgTable(
  "newsletter_confirmations",
  {
    id: serial("id").primaryKey(),
    mailbox: text("mailbox").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("newsletter_confirmations_mailbox_idx").on(t.mailbox, t.sentAt),
    index("newsletter_confirmations_sent_idx").on(t.sentAt),
  ],
);

/**
 * Addresses the newsletter never mails again unprompted: unsubscribed ones and those whose mail
 * server refused them for good (`bounced`). Signup and sending both read it.
 */
export const newsletterSuppressions = pgTable("newsletter_suppressions", {
  /** Normalised, as in newsletter_subscribers. */
  email: text("email").primaryKey(),
  /** `unsubscribed` or `bounced`. */
  reason: text("reason").notNull(),
  /** The mail server's answer, for a bounce. */
  detail: text("detail"),
  ...timestamps,
});

/**
 * One digest: rendered once (its HTML and text, with a placeholder for each reader's unsubscribe
 * address), so a send resumed after a crash sends exactly what the first run did.
 */
export const newsletterIssues = pgTable("newsletter_issues", {
  id: serial("id").primaryKey(),
  /** The San Diego date of a scheduled issue (`2026-12-01`), or `manual-<time>` for a sent-now one. */
  key: text("key").notNull().unique(),
  subject: text("subject").notNull(),
  html: text("html").notNull(),
  text: text("text").notNull(),
  /** Set when no delivery is left to try. */
  completedAt: timestamp("completed_at", { withTimezone: true }),
  ...timestamps,
});

/**
 * One row per issue and reader, written when the issue is made: the send works through the queued
 * ones, so a crash or restart resumes without skipping anyone or sending anyone an issue twice.
 */
export const newsletterDeliveries = pgTable(
  "newsletter_deliveries",
  {
    issueId: integer("issue_id")
      .notNull()
      .references(() => newsletterIssues.id, { onDelete: "cascade" }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    /** `queued`, `sent`, `bounced`, `failed` (gave up after retries) or `skipped` (left meanwhile). */
    status: text("status").notNull().default("queued"),
    /** Times a send was begun; above 0 while queued means a run stopped while handing it over. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.subscriberId] }),
    index("newsletter_deliveries_queued_idx")
      .on(t.issueId, t.subscriberId)
      .where(sql`${t.status} = 'queued'`),
  ],
);

/**
 * Form submissions per form and address (a keyed hash, never the address) in the last window,
 * counted here when several web processes or machines share one PostgreSQL database.
 */
export const formRateLimits = pgTable(
  "form_rate_limits",
  {
    key: text("key").primaryKey(),
    /** The times of the submissions counted in the current window, oldest first. */
    hits: timestamp("hits", { withTimezone: true }).array().notNull(),
    /** Whether the last submission was let through. */
    allowed: boolean("allowed").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("form_rate_limits_updated_idx").on(t.updatedAt)],
);

export const pollVotes = pgTable(
  "poll_votes",
  {
    id: serial("id").primaryKey(),
    pollId: text("poll_id").notNull(),
    option: text("option").notNull(),
    /** A random per-browser token from a cookie; never an IP address. */
    voterId: text("voter_id").notNull(),
    /**
     * A keyed hash of the voter's network and the day (server/forms/poll.ts): votes per network per
     * poll per day are counted against a ceiling. Cleared once the day is over; never the address.
     */
    addressKey: text("address_key"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("poll_votes_one_per_voter").on(t.pollId, t.voterId),
    index("poll_votes_address_and_day_idx").on(t.pollId, t.addressKey),
    index("poll_votes_poll_idx").on(t.pollId, t.option),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    category: text("category"),
    message: text("message").notNull(),
    /** Why the message looks automated (server/forms/contact.ts); null for a reader's message. */
    spamReason: text("spam_reason"),
    /** When staff marked it handled in the newsroom's inbox, and who; null while it is open. */
    handledAt: timestamp("handled_at", { withTimezone: true }),
    handledBy: text("handled_by"),
    ...timestamps,
  },
  (t) => [index("contact_messages_created_idx").on(sql`${t.createdAt} DESC`)],
);

/** Random secrets the site makes for itself on first use (server/db/secrets.ts). */
export const siteSecrets = pgTable("site_secrets", {
  name: text("name").primaryKey(),
  /** Base64 of 32 random bytes. */
  value: text("value").notNull(),
  ...timestamps,
});

/**
 * The publication's staff, who sign in to the newsroom (server/staff, decision 023). Created from
 * the command line only (`news staff add`); readers never have accounts.
 */
export const staff = pgTable("staff", {
  id: serial("id").primaryKey(),
  /** Normalised: trimmed and lower-cased. */
  email: text("email").notNull().unique(),
  /** `editor` acts on content; `admin` also manages feeds and sees subscribers. */
  role: text("role").notNull(),
  /** argon2id, in its PHC string form (parameters and salt included). */
  passwordHash: text("password_hash").notNull(),
  ...timestamps,
});

/** Signed-in sessions: the sha256 of the cookie's random token, never the token itself. */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** The absolute end, whatever the use. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("staff_sessions_staff_idx").on(t.staffId)],
);

/**
 * Failed sign-ins, one row each, by a keyed hash of the e-mail given and of the address it came
 * from: counted across every process and machine on the database to lock out guessing.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: serial("id").primaryKey(),
    /** `account:<hmac>` or `address:<hmac>`. */
    key: text("key").notNull(),
    ...timestamps,
  },
  (t) => [index("sign_in_failures_key_idx").on(t.key, t.createdAt)],
);

/** Every staff action: who, what, on what, the state before and after. Only ever added to. */
export const staffAudit = pgTable(
  "staff_audit",
  {
    id: serial("id").primaryKey(),
    /** Kept when the account is removed; the e-mail says who it was. */
    staffId: integer("staff_id"),
    staffEmail: text("staff_email").notNull(),
    action: text("action").notNull(),
    subject: text("subject"),
    before: jsonb("before"),
    after: jsonb("after"),
    ...timestamps,
  },
  (t) => [
    index("staff_audit_created_idx").on(sql`${t.createdAt} DESC`),
    // A story's last change by staff (the newsroom's "View on site" link) is read by subject.
    index("staff_audit_subject_idx").on(t.subject, t.createdAt),
  ],
);

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
