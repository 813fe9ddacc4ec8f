import path from "node:path";
import { inspect } from "node:util";
import { z } from "zod";
import { orExit } from "./exit";

/**
 * Every setting of the site, read from environment variables once at start.
 * An invalid value stops the process with a one-line message that names the variable.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const port = z.coerce
  .number({ error: "a whole number from 1 to 65535" })
  .int("a whole number from 1 to 65535")
  .min(1, "a whole number from 1 to 65535")
  .max(65535, "a whole number from 1 to 65535");

const httpUrl = z
  .url({ protocol: /^https?$/, error: "an absolute http:// or https:// URL" })
  .transform((value) => value.replace(/\/+$/, ""));

const postgresUrl = z
  .url({ protocol: /^postgres(ql)?$/, error: "a postgres:// or postgresql:// URL" })
  .optional();

const nonEmpty = z.string().trim().min(1, "a non-empty value");

const optionalHttpsUrl = z
  .url({ protocol: /^https?$/, error: "an absolute http:// or https:// URL" })
  .optional();

const ORIGINS_ERROR =
  "comma-separated https origins, such as https://ads.example.net,https://cdn.example.net";

/** A list of https origins (scheme, host and port, nothing after them), comma-separated. */
const httpsOrigins = z.string().transform((value, ctx) => {
  const origins: string[] = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || url.protocol !== "https:" || entry.replace(/\/$/, "") !== url.origin) {
      ctx.addIssue({ code: "custom", message: ORIGINS_ERROR });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
});

const VARNISH_URLS_ERROR =
  "comma-separated Varnish addresses (scheme, host and port), such as http://127.0.0.1:6081";

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
  INGEST_CONCURRENCY: z.coerce
    .number({ error: "a whole number from 1 to 64" })
    .int("a whole number from 1 to 64")
    .min(1, "a whole number from 1 to 64")
    .max(64, "a whole number from 1 to 64")
    .default(6),
  WEB_CONCURRENCY: z.coerce
    .number({ error: "a whole number from 1 to 64" })
    .int("a whole number from 1 to 64")
    .min(1, "a whole number from 1 to 64")
    .max(64, "a whole number from 1 to 64")
    .default(1),
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
  PAGE_CACHE_MB: z.coerce
    .number({ error: "a number of megabytes from 0 (off) to 4096" })
    .min(0, "a number of megabytes from 0 (off) to 4096")
    .max(4096, "a number of megabytes from 0 (off) to 4096")
    .default(64),
  READ_CACHE_MB: z.coerce
    .number({ error: "a number of megabytes from 0 (off) to 1024" })
    .min(0, "a number of megabytes from 0 (off) to 1024")
    .max(1024, "a number of megabytes from 0 (off) to 1024")
    .default(16),
  PAGE_CACHE_SECONDS: z.coerce
    .number({ error: "a whole number of seconds from 1 to 3600" })
    .int("a whole number of seconds from 1 to 3600")
    .min(1, "a whole number of seconds from 1 to 3600")
    .max(3600, "a whole number of seconds from 1 to 3600")
    .default(60),
  FORM_RATE_LIMIT: z.coerce
    .number({ error: "a whole number from 1 to 100000" })
    .int("a whole number from 1 to 100000")
    .min(1, "a whole number from 1 to 100000")
    .max(100_000, "a whole number from 1 to 100000")
    .default(10),
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: "a whole number from 0 to 10" })
    .int("a whole number from 0 to 10")
    .min(0, "a whole number from 0 to 10")
    .max(10, "a whole number from 0 to 10")
    .default(0),
  CONTENT_DIR: nonEmpty.default("content"),
  BLOG_SOURCE: z.enum(["local", "hosted"], { error: "local or hosted" }).default("local"),
  BLOG_DIR: nonEmpty.default("content/blog"),
  BLOG_API_URL: httpUrl.optional(),
  BLOG_API_KEY: nonEmpty.optional(),
  PICTURES_DIR: nonEmpty.optional(),
  PICTURES_MAX_MB: z.coerce
    .number({ error: "a number of megabytes from 16 to 1048576" })
    .min(16, "a number of megabytes from 16 to 1048576")
    .max(1_048_576, "a number of megabytes from 16 to 1048576")
    .default(2048),
  UPLOAD_MAX_BYTES: z.coerce
    .number({ error: "a whole number of bytes from 1048576 to 104857600" })
    .int("a whole number of bytes from 1048576 to 104857600")
    .min(1_048_576, "a whole number of bytes from 1048576 to 104857600")
    .max(104_857_600, "a whole number of bytes from 1048576 to 104857600")
    .default(15 * 1024 * 1024),
  PICTURE_STORE: z.enum(["folder", "s3"], { error: "folder or s3" }).default("folder"),
  S3_ENDPOINT: httpUrl.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      error: "a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens",
    })
    .optional(),
  S3_REGION: nonEmpty.default("us-east-1"),
  S3_PREFIX: z
    .string()
    .regex(/^\/*(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\/*$/, {
      error: "a key prefix such as news or sites/news (letters, digits, . _ - and /)",
    })
    .optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"], { error: "true or false" })
    .default("false")
    .transform((value) => value === "true"),
  S3_ACCESS_KEY_ID: nonEmpty.optional(),
  S3_SECRET_ACCESS_KEY: nonEmpty.optional(),
  S3_TIMEOUT_MS: z.coerce
    .number({ error: "a whole number of milliseconds from 100 to 60000" })
    .int("a whole number of milliseconds from 100 to 60000")
    .min(100, "a whole number of milliseconds from 100 to 60000")
    .max(60_000, "a whole number of milliseconds from 100 to 60000")
    .default(2000),
  IMAGE_FETCH_ALLOW_PRIVATE: z
    .enum(["true", "false"], { error: "true or false" })
    .default("false")
    .transform((value) => value === "true"),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: "an smtp:// or smtps:// URL, such as smtp://user:pass@mail.example.net:587",
    })
    .optional(),
  NEWSLETTER_FROM: z
    .string()
    .trim()
    .regex(/^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
      error: 'an e-mail address, or a name and one: "San Diego Local <news@example.com>"',
    })
    .optional(),
  NEWSLETTER_SEND_AT: z
    .string()
    .regex(/^(?:off|(?:[01]\d|2[0-3]):[0-5]\d)$/, {
      error: "a San Diego time as HH:MM (24-hour), or off",
    })
    .default("06:00"),
  NEWSLETTER_RESEND_MINUTES: z.coerce
    .number({ error: "a whole number of minutes from 1 to 1440" })
    .int("a whole number of minutes from 1 to 1440")
    .min(1, "a whole number of minutes from 1 to 1440")
    .max(1440, "a whole number of minutes from 1 to 1440")
    .default(10),
  NEWSLETTER_KEEP_DAYS: z.coerce
    .number({ error: "a whole number of days from 7 to 3650" })
    .int("a whole number of days from 7 to 3650")
    .min(7, "a whole number of days from 7 to 3650")
    .max(3650, "a whole number of days from 7 to 3650")
    .default(90),
  NEWSLETTER_CONFIRMATIONS_PER_HOUR: z.coerce
    .number({ error: "a whole number from 1 to 100000" })
    .int("a whole number from 1 to 100000")
    .min(1, "a whole number from 1 to 100000")
    .max(100_000, "a whole number from 1 to 100000")
    .default(200),
  MAIL_OUTBOX_DIR: nonEmpty.optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{32,}$/, "at least 32 visible characters, no spaces (a random token)")
    .optional(),
  PURGER: z
    .enum(["none", "varnish", "fastly", "cloudflare"], {
      error: "none, varnish, fastly or cloudflare",
    })
    .default("none"),
  VARNISH_URLS: z
    .string()
    .transform((value, ctx) => {
      const urls = value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean);
      if (urls.length === 0 || !urls.every((url) => /^https?:\/\/[^/?#\s]+\/?$/.test(url))) {
        ctx.addIssue({ code: "custom", message: VARNISH_URLS_ERROR });
        return z.NEVER;
      }
      return urls.map((url) => url.replace(/\/$/, ""));
    })
    .optional(),
  FASTLY_API_URL: httpUrl.default("https://api.fastly.com"),
  FASTLY_SERVICE_ID: nonEmpty.optional(),
  FASTLY_API_TOKEN: nonEmpty.optional(),
  FASTLY_SOFT_PURGE: z
    .enum(["true", "false"], { error: "true or false" })
    .default("false")
    .transform((value) => value === "true"),
  CLOUDFLARE_API_URL: httpUrl.default("https://api.cloudflare.com/client/v4"),
  CLOUDFLARE_ZONE_ID: nonEmpty.optional(),
  CLOUDFLARE_API_TOKEN: nonEmpty.optional(),
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
  pictures: {
    dir: string;
    maxBytes: number;
    allowPrivateAddresses: boolean;
    uploadMaxBytes: number;
    store: { kind: "folder" } | ({ kind: "s3" } & S3StoreConfig);
  };
  /** The bearer token `/metrics` asks for; null: `/metrics` is not served. Never logged. */
  metricsToken: string | null;
  /** The newsletter's mail (server/newsletter, decision 026). */
  newsletter: NewsletterConfig;
  /** What purges the cache in front of the site when pages change (PURGER, decision 009). */
  purge: PurgeConfig;
}

/** The cache in front of the site and how to purge it; tokens are never logged. */
export type PurgeConfig =
  | { kind: "none" }
  | { kind: "varnish"; urls: string[] }
  | { kind: "fastly"; apiUrl: string; serviceId: string; token: string; soft: boolean }
  | { kind: "cloudflare"; apiUrl: string; zoneId: string; token: string };

export interface NewsletterConfig {
  /** SMTP server to send through (SMTP_URL, may hold a password: never logged); null: the outbox. */
  smtpUrl: string | null;
  /** Where mail goes as `.eml` files when no SMTP server is set. */
  outboxDir: string;
  /** The From of every newsletter mail. */
  from: string;
  /** When the daily digest goes out, San Diego time; null: no schedule (send it from the CLI). */
  sendAt: { hour: number; minute: number } | null;
  /** The least time between two confirmation mails to one pending address. */
  resendMinutes: number;
  /** Days a finished issue and its deliveries are kept (NEWSLETTER_KEEP_DAYS). */
  keepIssuesDays: number;
  /** Confirmation mails the whole site sends in an hour at most (NEWSLETTER_CONFIRMATIONS_PER_HOUR). */
  confirmationsPerHour: number;
}

/** The bucket pictures are kept in with PICTURE_STORE=s3 (server/images/s3-store.ts). */
export interface S3StoreConfig {
  /** The service's address (MinIO, Ceph, R2...); null: AWS S3 itself, by `region`. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Put before every key, ending in `/` (`news/`), or empty. */
  prefix: string;
  /** `https://host/bucket/key` (MinIO, Ceph) rather than `https://bucket.host/key` (AWS, R2). */
  forcePathStyle: boolean;
  /**
   * Never logged: printed or logged, the secret shows as [redacted]. null: the SDK's own chain
   * (the AWS_* variables, the machine's role).
   */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** The longest a connection may take to open, or a request may stay silent (S3_TIMEOUT_MS). */
  timeoutMs: number;
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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly expected: string,
    readonly received: string | undefined,
  ) {
    const got = received === undefined ? "" : ` (got ${JSON.stringify(received)})`;
    super(`Invalid configuration: ${variable} must be ${expected}${got}`);
    this.name = "ConfigError";
  }
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
    pictures: {
      dir: path.resolve(cwd, v.PICTURES_DIR ?? path.join(v.DATA_DIR, "pictures")),
      maxBytes: Math.round(v.PICTURES_MAX_MB * 1024 * 1024),
      allowPrivateAddresses: v.IMAGE_FETCH_ALLOW_PRIVATE,
      uploadMaxBytes: v.UPLOAD_MAX_BYTES,
      store: pictureStoreConfig(v),
    },
    blog: blogConfig(v, cwd),
    purge: purgeConfig(v),
    newsletter: {
      smtpUrl: v.SMTP_URL ?? null,
      outboxDir: path.resolve(cwd, v.MAIL_OUTBOX_DIR ?? path.join(v.DATA_DIR, "outbox")),
      from: v.NEWSLETTER_FROM ?? `newsletter@${new URL(v.SITE_URL).hostname}`,
      sendAt: sendTime(v.NEWSLETTER_SEND_AT),
      resendMinutes: v.NEWSLETTER_RESEND_MINUTES,
      keepIssuesDays: v.NEWSLETTER_KEEP_DAYS,
      confirmationsPerHour: v.NEWSLETTER_CONFIRMATIONS_PER_HOUR,
    },
  };
}

function sendTime(value: string): NewsletterConfig["sendAt"] {
  if (value === "off") return null;
  const [hour = 0, minute = 0] = value.split(":").map(Number);
  return { hour, minute };
}

function pictureStoreConfig(v: z.output<typeof schema>): Config["pictures"]["store"] {
  if (v.PICTURE_STORE === "folder") return { kind: "folder" };
  if (!v.S3_BUCKET) throw new ConfigError("S3_BUCKET", "set when PICTURE_STORE is s3", undefined);
  if (Boolean(v.S3_ACCESS_KEY_ID) !== Boolean(v.S3_SECRET_ACCESS_KEY)) {
    const missing = v.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    // The value is never shown: it may be the secret.
    throw new ConfigError(
      missing,
      "set with the other of S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
      undefined,
    );
  }
  const prefix = (v.S3_PREFIX ?? "").replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3",
    endpoint: v.S3_ENDPOINT ?? null,
    bucket: v.S3_BUCKET,
    region: v.S3_REGION,
    prefix: prefix ? `${prefix}/` : "",
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
    credentials:
      v.S3_ACCESS_KEY_ID && v.S3_SECRET_ACCESS_KEY
        ? redacted({ accessKeyId: v.S3_ACCESS_KEY_ID, secretAccessKey: v.S3_SECRET_ACCESS_KEY })
        : null,
    timeoutMs: v.S3_TIMEOUT_MS,
  };
}

/** The credentials as they are, shown as [redacted] when logged (JSON) or printed (inspect). */
function redacted(credentials: { accessKeyId: string; secretAccessKey: string }) {
  const shown = { accessKeyId: credentials.accessKeyId, secretAccessKey: "[redacted]" };
  return Object.defineProperties(credentials, {
    toJSON: { value: () => shown, enumerable: false },
    [inspect.custom]: { value: () => shown, enumerable: false },
  });
}

function purgeConfig(v: z.output<typeof schema>): PurgeConfig {
  const required = <T>(variable: string, value: T | undefined): T => {
    if (value === undefined) {
      throw new ConfigError(variable, `set when PURGER is ${v.PURGER}`, undefined);
    }
    return value;
  };
  switch (v.PURGER) {
    case "none":
      return { kind: "none" };
    case "varnish":
      return { kind: "varnish", urls: required("VARNISH_URLS", v.VARNISH_URLS) };
    case "fastly":
      return {
        kind: "fastly",
        apiUrl: v.FASTLY_API_URL,
        serviceId: required("FASTLY_SERVICE_ID", v.FASTLY_SERVICE_ID),
        token: required("FASTLY_API_TOKEN", v.FASTLY_API_TOKEN),
        soft: v.FASTLY_SOFT_PURGE,
      };
    case "cloudflare":
      return {
        kind: "cloudflare",
        apiUrl: v.CLOUDFLARE_API_URL,
        zoneId: required("CLOUDFLARE_ZONE_ID", v.CLOUDFLARE_ZONE_ID),
        token: required("CLOUDFLARE_API_TOKEN", v.CLOUDFLARE_API_TOKEN),
      };
  }
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
