// The environment variables the site reads (server/config.ts; scripts/site-settings.test.ts keeps
// the two lists equal). Tools that start a copy of the site of their own, the audit, the benchmarks
// and the browser tests' server, start it from the calling shell's environment without these
// (scripts/sample-site.js), so that copy runs on what the tool gives it: never on the shell's
// DATABASE_URL, ad provider, embeds, hosted blog or cache sizes.
export const SITE_SETTINGS = [
  "NODE_ENV",
  "PORT",
  "HOST",
  "SITE_URL",
  "DATABASE_URL",
  "DATA_DIR",
  "FEEDS_FILE",
  "INGEST_INTERVAL_MINUTES",
  "INGEST_CONCURRENCY",
  "WEB_CONCURRENCY",
  "LOG_LEVEL",
  "AD_SCRIPT_URL",
  "AD_PROVIDER_ORIGINS",
  "FEATURED_VIDEO_URL",
  "IMAGE_FEED_EMBED_URL",
  "HOLIDAY_CALENDAR_EMBED_URL",
  "FEED_WALL_EMBED_URL",
  "CONTACT_FORM_URL",
  "PAGE_CACHE_MB",
  "READ_CACHE_MB",
  "PAGE_CACHE_SECONDS",
  "FORM_RATE_LIMIT",
  "TRUST_PROXY_HOPS",
  "CONTENT_DIR",
  "BLOG_SOURCE",
  "BLOG_DIR",
  "BLOG_API_URL",
  "BLOG_API_KEY",
  "PICTURES_DIR",
  "PICTURES_MAX_MB",
  "UPLOAD_MAX_BYTES",
  "PICTURE_STORE",
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_PREFIX",
  "S3_FORCE_PATH_STYLE",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_TIMEOUT_MS",
  "IMAGE_FETCH_ALLOW_PRIVATE",
  "SMTP_URL",
  "NEWSLETTER_FROM",
  "NEWSLETTER_SEND_AT",
  "NEWSLETTER_RESEND_MINUTES",
  "NEWSLETTER_KEEP_DAYS",
  "NEWSLETTER_CONFIRMATIONS_PER_HOUR",
  "MAIL_OUTBOX_DIR",
  "METRICS_TOKEN",
  // A tool's copy of the site never purges the real site's CDN.
  "PURGER",
  "VARNISH_URLS",
  "FASTLY_API_URL",
  "FASTLY_SERVICE_ID",
  "FASTLY_API_TOKEN",
  "FASTLY_SOFT_PURGE",
  "CLOUDFLARE_API_URL",
  "CLOUDFLARE_ZONE_ID",
  "CLOUDFLARE_API_TOKEN",
];

const SITE_SETTING_NAMES = new Set(SITE_SETTINGS);

/** `env` without any of the site's settings (PATH, HOME and the like stay). */
export function withoutSiteSettings(env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SITE_SETTING_NAMES.has(name)));
}
