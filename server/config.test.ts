import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

describe("parseConfig", () => {
  it("has working defaults", () => {
    const config = parseConfig({}, "/srv/news");
    expect(config).toEqual({
      nodeEnv: "development",
      port: 3000,
      host: "localhost",
      siteUrl: "http://localhost:3000",
      database: { kind: "pglite", dataDir: "/srv/news/data" },
      feedsFile: "/srv/news/config/feeds.json",
      ingestIntervalMinutes: 15,
      ingestConcurrency: 6,
      webProcesses: 1,
      logLevel: "info",
      trustProxyHops: 0,
      formRateLimit: 10,
      metricsToken: null,
      pageCache: { maxBytes: 64 * 1024 * 1024, ttlSeconds: 60 },
      readCache: { maxBytes: 16 * 1024 * 1024 },
      embeds: {
        adScriptUrl: null,
        featuredVideoUrl: null,
        imageFeedUrl: null,
        holidayCalendarUrl: null,
        feedWallUrl: null,
        contactFormUrl: null,
      },
      adProviderOrigins: [],
      contentDir: "/srv/news/content",
      pictures: {
        dir: "/srv/news/data/pictures",
        maxBytes: 2048 * 1024 * 1024,
        allowPrivateAddresses: false,
        uploadMaxBytes: 15 * 1024 * 1024,
        store: { kind: "folder" },
      },
      blog: { source: "local", dir: "/srv/news/content/blog" },
      purge: { kind: "none" },
      newsletter: {
        smtpUrl: null,
        outboxDir: "/srv/news/data/outbox",
        from: "newsletter@localhost",
        sendAt: { hour: 6, minute: 0 },
        resendMinutes: 10,
        keepIssuesDays: 90,
        confirmationsPerHour: 200,
      },
    });
  });

  it("reads the newsletter's mail settings", () => {
    expect(
      parseConfig(
        {
          SMTP_URL: "smtps://user:secret@mail.example.net:465",
          NEWSLETTER_FROM: "San Diego Local <news@example.net>",
          NEWSLETTER_SEND_AT: "17:45",
          NEWSLETTER_RESEND_MINUTES: "30",
          NEWSLETTER_KEEP_DAYS: "400",
          NEWSLETTER_CONFIRMATIONS_PER_HOUR: "50",
          MAIL_OUTBOX_DIR: "mail",
        },
        "/srv/news",
      ).newsletter,
    ).toEqual({
      smtpUrl: "smtps://user:secret@mail.example.net:465",
      outboxDir: "/srv/news/mail",
      from: "San Diego Local <news@example.net>",
      sendAt: { hour: 17, minute: 45 },
      resendMinutes: 30,
      keepIssuesDays: 400,
      confirmationsPerHour: 50,
    });
    expect(parseConfig({ NEWSLETTER_SEND_AT: "off" }).newsletter.sendAt).toBeNull();
    for (const [variable, value] of [
      ["SMTP_URL", "http://mail.example.net"],
      ["NEWSLETTER_FROM", "not an address"],
      ["NEWSLETTER_SEND_AT", "6am"],
      ["NEWSLETTER_SEND_AT", "24:00"],
      ["NEWSLETTER_RESEND_MINUTES", "0"],
      ["NEWSLETTER_KEEP_DAYS", "6"],
      ["NEWSLETTER_KEEP_DAYS", "30.5"],
      ["NEWSLETTER_CONFIRMATIONS_PER_HOUR", "0"],
    ] as const) {
      expect(() => parseConfig({ [variable]: value })).toThrow(
        expect.objectContaining({ variable }) as Error,
      );
    }
  });

  it("reads the hosted blog's address and key", () => {
    expect(
      parseConfig({
        BLOG_SOURCE: "hosted",
        BLOG_API_URL: "https://blog-api.example.net/functions/v1/",
        BLOG_API_KEY: "anon-key",
      }).blog,
    ).toEqual({
      source: "hosted",
      apiUrl: "https://blog-api.example.net/functions/v1",
      apiKey: "anon-key",
    });
  });

  it.each([
    [{ BLOG_SOURCE: "hosted", BLOG_API_KEY: "k" }, "BLOG_API_URL"],
    [{ BLOG_SOURCE: "hosted", BLOG_API_URL: "https://blog-api.example.net" }, "BLOG_API_KEY"],
  ])("a hosted blog needs its address and key (%o)", (env, variable) => {
    expect(() => parseConfig(env)).toThrow(
      new RegExp(`^Invalid configuration: ${variable} must be set when BLOG_SOURCE is hosted`),
    );
  });

  it("keeps pictures in an S3-compatible bucket when asked, with the secret never shown", () => {
    const store = parseConfig({
      PICTURE_STORE: "s3",
      S3_ENDPOINT: "https://minio.example.net:9000/",
      S3_BUCKET: "news-pictures",
      S3_REGION: "auto",
      S3_PREFIX: "/sites/news/",
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: "AKIDEXAMPLE",
      S3_SECRET_ACCESS_KEY: "wJalrXUtnFEMI-secret",
      S3_TIMEOUT_MS: "500",
    }).pictures.store;
    expect(store).toEqual({
      kind: "s3",
      endpoint: "https://minio.example.net:9000",
      bucket: "news-pictures",
      region: "auto",
      prefix: "sites/news/",
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI-secret" },
      timeoutMs: 500,
    });
    // Logged (pino writes JSON) or printed, the secret is not there.
    expect(JSON.stringify({ store })).not.toContain("wJalrXUtnFEMI");
    expect(inspect({ store }, { depth: 10 })).not.toContain("wJalrXUtnFEMI");
    expect(JSON.stringify({ store })).toContain("AKIDEXAMPLE");
  });

  it("asks AWS S3 itself, by region, with the SDK's own credentials, when no more is set", () => {
    expect(parseConfig({ PICTURE_STORE: "s3", S3_BUCKET: "news" }).pictures.store).toEqual({
      kind: "s3",
      endpoint: null,
      bucket: "news",
      region: "us-east-1",
      prefix: "",
      forcePathStyle: false,
      credentials: null,
      timeoutMs: 2000,
    });
  });

  it.each([
    [{ PICTURE_STORE: "s3" }, "S3_BUCKET must be set when PICTURE_STORE is s3"],
    [{ PICTURE_STORE: "s3", S3_BUCKET: "b1b", S3_ACCESS_KEY_ID: "id" }, "S3_SECRET_ACCESS_KEY"],
    [{ PICTURE_STORE: "s3", S3_BUCKET: "b1b", S3_SECRET_ACCESS_KEY: "x" }, "S3_ACCESS_KEY_ID"],
    [{ PICTURE_STORE: "s3", S3_BUCKET: "Not_A_Bucket" }, "S3_BUCKET must be a bucket name"],
    [{ PICTURE_STORE: "bucket" }, "PICTURE_STORE must be folder or s3"],
    [{ S3_PREFIX: "a b" }, "S3_PREFIX must be a key prefix"],
    [{ S3_TIMEOUT_MS: "5" }, "S3_TIMEOUT_MS must be a whole number of milliseconds"],
  ])("refuses an incomplete or wrong bucket (%o)", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it("never repeats the secret key in its message", () => {
    expect(() => parseConfig({ S3_SECRET_ACCESS_KEY: "   " })).toThrow(
      /^Invalid configuration: S3_SECRET_ACCESS_KEY must be a non-empty value$/,
    );
  });

  it("reads every variable", () => {
    const config = parseConfig(
      {
        NODE_ENV: "production",
        PORT: "8080",
        HOST: "0.0.0.0",
        SITE_URL: "https://news.example.org/",
        DATABASE_URL: "postgres://news@db.internal:5432/news",
        FEEDS_FILE: "/etc/news/feeds.json",
        INGEST_INTERVAL_MINUTES: "0",
        WEB_CONCURRENCY: "4",
        LOG_LEVEL: "warn",
        AD_SCRIPT_URL: "https://ads.example.net/serve.js?zone={slot}",
        AD_PROVIDER_ORIGINS: "https://cdn.ads.example.net, https://frames.ads.example.net:8443/",
        FEATURED_VIDEO_URL: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        READ_CACHE_MB: "0",
        PICTURES_DIR: "/var/lib/news/pictures",
        PICTURES_MAX_MB: "512",
        UPLOAD_MAX_BYTES: "20971520",
        IMAGE_FETCH_ALLOW_PRIVATE: "true",
      },
      "/srv/news",
    );
    expect(config).toMatchObject({
      nodeEnv: "production",
      port: 8080,
      host: "0.0.0.0",
      siteUrl: "https://news.example.org",
      database: { kind: "postgres", url: "postgres://news@db.internal:5432/news" },
      feedsFile: "/etc/news/feeds.json",
      ingestIntervalMinutes: 0,
      webProcesses: 4,
      logLevel: "warn",
      embeds: {
        adScriptUrl: "https://ads.example.net/serve.js?zone={slot}",
        featuredVideoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      },
      adProviderOrigins: ["https://cdn.ads.example.net", "https://frames.ads.example.net:8443"],
      readCache: { maxBytes: 0 },
      pictures: {
        dir: "/var/lib/news/pictures",
        maxBytes: 512 * 1024 * 1024,
        allowPrivateAddresses: true,
        uploadMaxBytes: 20 * 1024 * 1024,
      },
    });
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ PORT: "", DATABASE_URL: "" }, "/x")).toMatchObject({
      port: 3000,
      database: { kind: "pglite" },
    });
  });

  it.each([
    ["PORT", "abc", "a whole number from 1 to 65535"],
    ["PORT", "70000", "a whole number from 1 to 65535"],
    ["SITE_URL", "news.example.org", "an absolute http:// or https:// URL"],
    ["SITE_URL", "ftp://news.example.org", "an absolute http:// or https:// URL"],
    ["DATABASE_URL", "mysql://localhost/news", "a postgres:// or postgresql:// URL"],
    ["INGEST_INTERVAL_MINUTES", "-5", "0 or more"],
    ["INGEST_INTERVAL_MINUTES", "soon", "0 or more"],
    ["INGEST_CONCURRENCY", "0", "a whole number from 1 to 64"],
    ["WEB_CONCURRENCY", "0", "a whole number from 1 to 64"],
    ["WEB_CONCURRENCY", "2", "1 with the embedded database (set DATABASE_URL"],
    ["AD_SCRIPT_URL", "https://ads.example.net/serve.js", "containing {slot}"],
    ["AD_PROVIDER_ORIGINS", "http://cdn.ads.example.net", "comma-separated https origins"],
    ["AD_PROVIDER_ORIGINS", "https://cdn.ads.example.net/lib/", "comma-separated https origins"],
    ["AD_PROVIDER_ORIGINS", "https://a.example.net,*.example.net", "comma-separated https origins"],
    ["FEATURED_VIDEO_URL", "youtube.com/watch?v=x", "an absolute http:// or https:// URL"],
    ["LOG_LEVEL", "loud", "fatal, error, warn, info, debug, trace, silent"],
    ["NODE_ENV", "staging", "development, production or test"],
    ["HOST", "   ", "a non-empty value"],
    ["PICTURES_MAX_MB", "8", "a number of megabytes from 16 to 1048576"],
    ["UPLOAD_MAX_BYTES", "15MB", "a whole number of bytes from 1048576 to 104857600"],
    ["UPLOAD_MAX_BYTES", "1000", "a whole number of bytes from 1048576 to 104857600"],
    ["IMAGE_FETCH_ALLOW_PRIVATE", "yes", "true or false"],
  ])("rejects %s=%s naming the variable", (variable, value, expected) => {
    let error: unknown;
    try {
      parseConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(`${variable} must be`);
    expect((error as ConfigError).message).toContain(expected);
    expect((error as ConfigError).message).not.toContain("\n");
  });
});

/** Starts the real server entry with one bad variable; it must stop before opening anything. */
function runServerWith(env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/main.ts")], {
      env: { PATH: process.env.PATH ?? "", DATA_DIR: "/nonexistent/never-opened", ...env },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stderr, stdout }));
  });
}

describe("the server with a content file it cannot use", () => {
  it("exits with code 1 and one line naming the file and the field", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-bad-content-"));
    try {
      fs.cpSync("content", dir, { recursive: true });
      const faq = path.join(dir, "faq.yaml");
      fs.writeFileSync(
        faq,
        fs.readFileSync(faq, "utf8").replace(/^( +)answer: .*$/m, "$1answer: 42"),
      );
      const result = await runServerWith({ CONTENT_DIR: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`${faq}: topics[0].items[0].answer: expected a string\n`);
      expect(result.stdout).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.concurrent("the server with an invalid variable", () => {
  it.each([
    ["PORT", "not-a-port"],
    ["HOST", " "],
    ["SITE_URL", "localhost:3000"],
    ["DATABASE_URL", "sqlite:./news.db"],
    ["DATA_DIR", " "],
    ["FEEDS_FILE", " "],
    ["INGEST_INTERVAL_MINUTES", "-1"],
    ["INGEST_CONCURRENCY", "many"],
    ["WEB_CONCURRENCY", "2"],
    ["LOG_LEVEL", "verbose"],
    ["AD_SCRIPT_URL", "https://ads.example.net/serve.js"],
    ["FEATURED_VIDEO_URL", "youtube.com/watch?v=dQw4w9WgXcQ"],
    ["CONTACT_FORM_URL", "javascript:alert(1)"],
    ["BLOG_SOURCE", "wordpress"],
    ["TRUST_PROXY_HOPS", "yes"],
    ["FORM_RATE_LIMIT", "0"],
    ["PAGE_CACHE_MB", "lots"],
    ["PAGE_CACHE_SECONDS", "0"],
    ["READ_CACHE_MB", "-1"],
    ["BLOG_API_URL", "ftp://blog.example.net"],
    ["METRICS_TOKEN", "short"],
  ])("exits with code 1 and one line naming %s", async (variable, value) => {
    const result = await runServerWith({ [variable]: value });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${variable} must be `));
    expect(result.stdout).toBe("");
  });
});
