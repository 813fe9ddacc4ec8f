import path from "node:path";
import { z } from "zod";
import { orExit } from "./exit";
import { ConfigError } from "./config/error";
import { newsletterConfig, newsletterVariables, type NewsletterConfig } from "./config/newsletter";
import { pictureVariables, picturesConfig, type PicturesConfig } from "./config/pictures";
import { purgeConfig, purgeVariables, type PurgeConfig } from "./config/purge";
import {
  httpUrl,
  httpsOrigins,
  nonEmpty,
  numberIn,
  optionalHttpsUrl,
  port,
  postgresUrl,
  wholeNumber,
} from "./config/readers";

// The readers of values and the pictures', newsletter's and purger's sections are in
// server/config/; callers import everything from here.
export { ConfigError };
export type { NewsletterConfig, PurgeConfig };
export type { S3StoreConfig } from "./config/pictures";

/**
 * Every setting of the site, read from environment variables once at start.
 * An invalid value stops the process with a one-line message that names the variable.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const schema = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"], { error: "development, production or test" })
    .default("development"),
  PORT: port.default(3000),
  HOST: nonEmpty.default("localhost"),
  SITE_URL: httpUrl.default("http://localhost:3000"),
  DATABASE_URL: postgresUrl,
  DATA_DIR: nonEmpty.default("./data"),
  FEEDS_FILE: nonEmpty.default("config/feeds.json"),
  INGEST_INTERVAL_MINUTES: z.coerce
    .number({ error: "a number of minutes, 0 or more (0 turns the schedule off)" })
    .min(0, "a number of minutes, 0 or more (0 turns the schedule off)")
    .max(24 * 60, "at most 1440 minutes (one day)")
    .default(15),
  INGEST_CONCURRENCY: wholeNumber(1, 64).default(6),
  WEB_CONCURRENCY: wholeNumber(1, 64).default(1),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: LOG_LEVELS.join(", ") }).default("info"),
  AD_SCRIPT_URL: z
    .url({ protocol: /^https?$/, error: "an http(s) URL template containing {slot}" })
    .refine((v) => v.includes("{slot}") || v.includes("%7Bslot%7D"), {
      error: "an http(s) URL template containing {slot}",
    })
    .optional(),
  AD_PROVIDER_ORIGINS: httpsOrigins.optional(),
  FEATURED_VIDEO_URL: optionalHttpsUrl,
  IMAGE_FEED_EMBED_URL: optionalHttpsUrl,
  HOLIDAY_CALENDAR_EMBED_URL: optionalHttpsUrl,
  FEED_WALL_EMBED_URL: optionalHttpsUrl,
  CONTACT_FORM_URL: optionalHttpsUrl,
  PAGE_CACHE_MB: numberIn(0, 4096, "a number of megabytes from 0 (off) to 4096").default(64),
  READ_CACHE_MB: numberIn(0, 1024, "a number of megabytes from 0 (off) to 1024").default(16),
  PAGE_CACHE_SECONDS: wholeNumber(1, 3600, "seconds").default(60),
  FORM_RATE_LIMIT: wholeNumber(1, 100_000).default(10),
  TRUST_PROXY_HOPS: wholeNumber(0, 10).default(0),
  CONTENT_DIR: nonEmpty.default("content"),
  BLOG_SOURCE: z.enum(["local", "hosted"], { error: "local or hosted" }).default("local"),
  BLOG_DIR: nonEmpty.default("content/blog"),
  BLOG_API_URL: httpUrl.optional(),
  BLOG_API_KEY: nonEmpty.optional(),
  // Sections of server/config/, in the places they always held: CONFIG_VARIABLES keeps its order,
  // and of several invalid variables the same one is reported first.
  ...pictureVariables,
  ...newsletterVariables,
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, "at least 32 visible characters, no spaces (a random token)")
    .optional(),
  ...purgeVariables,
});

export type Env = z.input<typeof schema>;

/** Every environment variable the site reads. */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as (keyof Env)[];

export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  siteUrl: string;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  feedsFile: string;
  ingestIntervalMinutes: number;
  /** Feeds fetched at once in a pass (at most two of them from one host). */
  ingestConcurrency: number;
  /** Web processes sharing the port (WEB_CONCURRENCY); more than one needs PostgreSQL. */
  webProcesses: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** What pages may show of outside providers; sent to the browser, so nothing secret. */
  embeds: PublicEmbeds;
  /**
   * Further origins the ad provider's script loads scripts and frames from and sends requests to
   * (AD_PROVIDER_ORIGINS), allowed by the pages' Content-Security-Policy while ads are on.
   */
  adProviderOrigins: string[];
  /** Rendered pages kept in memory: at most this many bytes (0: no cache), each this long. */
  pageCache: { maxBytes: number; ttlSeconds: number };
  /** Article reads kept until articles change (server/news/read-cache.ts); 0 bytes: off. */
  readCache: { maxBytes: number };
  /** Form submissions allowed per address and form in 10 minutes. */
  formRateLimit: number;
  /** Reverse proxies in front of the site whose X-Forwarded-For is believed (0: none). */
  trustProxyHops: number;
  /** The editorial content: site settings, FAQ, legal texts, events... (server/content). */
  contentDir: string;
  /** Where blog posts come from: Markdown files here, or the hosted blog API. */
  blog: BlogConfig;
  /**
   * Pictures kept on disk (server/images), whether feed pictures may come from private addresses,
   * and the largest picture staff may upload, in bytes (UPLOAD_MAX_BYTES). `store`: in `dir`, at
   * most `maxBytes`, or in an S3-compatible bucket shared by several machines (decision 022).
   */
  pictures: PicturesConfig;
  /** The bearer token `/metrics` asks for; null: `/metrics` is not served. Never logged. */
  metricsToken: string | null;
  /** The newsletter's mail (server/newsletter, decision 026). */
  newsletter: NewsletterConfig;
  /** What purges the cache in front of the site when pages change (PURGER, decision 009). */
  purge: PurgeConfig;
}

export type BlogConfig =
  { source: "local"; dir: string } | { source: "hosted"; apiUrl: string; apiKey: string };

export interface PublicEmbeds {
  /** Ad provider script address with `{slot}` for the slot id; null shows labelled placeholders. */
  adScriptUrl: string | null;
  featuredVideoUrl: string | null;
  imageFeedUrl: string | null;
  holidayCalendarUrl: string | null;
  feedWallUrl: string | null;
  /** An outside contact form shown in a frame on /contact-us; null shows our own form. */
  contactFormUrl: string | null;
}

/** Variables that are set but empty count as unset, as shells and `.env` files often leave them. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") result[key] = value;
  }
  return result;
}

export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const input = withoutEmpty(env);
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? "configuration");
    // A secret's value is not repeated in the message (it goes to the terminal and the logs).
    const shown = variable === "S3_SECRET_ACCESS_KEY" ? undefined : input[variable];
    throw new ConfigError(variable, issue?.message ?? "valid", shown);
  }
  const v = parsed.data;
  if (v.WEB_CONCURRENCY > 1 && !v.DATABASE_URL) {
    // The embedded database belongs to one process: several web processes need a shared server.
    throw new ConfigError(
      "WEB_CONCURRENCY",
      "1 with the embedded database (set DATABASE_URL to run several web processes)",
      input.WEB_CONCURRENCY,
    );
  }
  return {
    nodeEnv: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    siteUrl: v.SITE_URL,
    database: v.DATABASE_URL
      ? { kind: "postgres", url: v.DATABASE_URL }
      : { kind: "pglite", dataDir: path.resolve(cwd, v.DATA_DIR) },
    feedsFile: path.resolve(cwd, v.FEEDS_FILE),
    ingestIntervalMinutes: v.INGEST_INTERVAL_MINUTES,
    ingestConcurrency: v.INGEST_CONCURRENCY,
    webProcesses: v.WEB_CONCURRENCY,
    logLevel: v.LOG_LEVEL,
    trustProxyHops: v.TRUST_PROXY_HOPS,
    formRateLimit: v.FORM_RATE_LIMIT,
    metricsToken: v.METRICS_TOKEN ?? null,
    pageCache: {
      maxBytes: Math.round(v.PAGE_CACHE_MB * 1024 * 1024),
      ttlSeconds: v.PAGE_CACHE_SECONDS,
    },
    readCache: { maxBytes: Math.round(v.READ_CACHE_MB * 1024 * 1024) },
    embeds: {
      adScriptUrl: v.AD_SCRIPT_URL?.replace("%7Bslot%7D", "{slot}") ?? null,
      featuredVideoUrl: v.FEATURED_VIDEO_URL ?? null,
      imageFeedUrl: v.IMAGE_FEED_EMBED_URL ?? null,
      holidayCalendarUrl: v.HOLIDAY_CALENDAR_EMBED_URL ?? null,
      feedWallUrl: v.FEED_WALL_EMBED_URL ?? null,
      contactFormUrl: v.CONTACT_FORM_URL ?? null,
    },
    adProviderOrigins: v.AD_PROVIDER_ORIGINS ?? [],
    contentDir: path.resolve(cwd, v.CONTENT_DIR),
    pictures: picturesConfig(v, cwd),
    blog: blogConfig(v, cwd),
    purge: purgeConfig(v),
    newsletter: newsletterConfig(v, cwd),
  };
}

function blogConfig(v: z.output<typeof schema>, cwd: string): BlogConfig {
  if (v.BLOG_SOURCE === "local") return { source: "local", dir: path.resolve(cwd, v.BLOG_DIR) };
  if (!v.BLOG_API_URL) {
    throw new ConfigError("BLOG_API_URL", "set when BLOG_SOURCE is hosted", undefined);
  }
  if (!v.BLOG_API_KEY) {
    throw new ConfigError("BLOG_API_KEY", "set when BLOG_SOURCE is hosted", undefined);
  }
  return { source: "hosted", apiUrl: v.BLOG_API_URL, apiKey: v.BLOG_API_KEY };
}

/** Reads the configuration, or ends the process with exit code 1 and one line naming the bad variable. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  return orExit(() => parseConfig(env), ConfigError);
}
