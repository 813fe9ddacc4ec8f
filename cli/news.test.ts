import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery } from "../server/db/admin";
import { openDatabase } from "../server/db/client";
import { articles } from "../server/db/schema";
import { endLockHolder } from "../server/db/test-databases";
import { saveContactMessage } from "../server/forms/repository";
import { addSubscriber } from "../server/test-support/subscribers";
import { countAudience } from "../server/newsletter/send";
import {
  confirmSubscription,
  requestSubscription,
  suppress,
} from "../server/newsletter/subscriptions";
import { INGEST_LOCK_ID } from "../server/ingest/ingest";
import { SANITIZE_POLICY_VERSION } from "../server/ingest/sanitize";
import { rssFeed, startFixtureServer, type FixtureServer } from "../server/ingest/test-server";
import { s3PictureStore } from "../server/images/s3-store";
import { startS3Server } from "../server/test-support/s3-server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function news(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/news.ts", ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        DATA_DIR: dataDir,
        FEEDS_FILE: "config/feeds.sample.json",
        SITE_URL: "http://127.0.0.1:3000",
        ...env,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("news command", { timeout: 120_000 }, () => {
  it("lists its commands, and each has --help", async () => {
    const names = [
      "migrate",
      "ingest",
      "feeds",
      "pictures",
      "parse",
      "subscribers",
      "newsletter",
      "resanitize",
      "backup",
      "restore",
    ];
    const [help, ...own] = await Promise.all([
      news(["--help"]),
      ...names.map((name) => news([name, "--help"])),
    ]);
    expect(help?.code).toBe(0);
    names.forEach((name, i) => {
      expect(help?.stdout).toContain(`  ${name}`);
      expect(own[i]?.code).toBe(0);
      expect(own[i]?.stdout).toMatch(new RegExp(`^Usage: news ${name}`));
    });
  });

  it("rejects an unknown command or option with usage and exit code 2", async () => {
    expect((await news(["frobnicate"])).code).toBe(2);
    const bad = await news(["ingest", "--fast"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Usage: news ingest");
  });

  it("parse: prints the normalised articles as a JSON array with the spec's field names", async () => {
    const result = await news([
      "parse",
      "fixtures/feeds/world-news.xml",
      "--category",
      "world-news",
    ]);
    expect(result.code).toBe(0);
    const articles = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(articles.length).toBeGreaterThanOrEqual(15);
    for (const article of articles) {
      expect(Object.keys(article)).toEqual([
        "id",
        "title",
        "excerpt",
        "content",
        "image",
        "category",
        "date",
        "author",
        "link",
      ]);
      expect(article.category).toBe("world-news");
      expect(String(article.date)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it("parse: a feed listed in FEEDS_FILE gets its configured category unless one is given", async () => {
    const categories = async (args: string[]) =>
      new Set(
        (JSON.parse((await news(["parse", ...args])).stdout) as { category: string }[]).map(
          (a) => a.category,
        ),
      );
    expect(await categories(["fixtures/feeds/sports.xml"])).toEqual(new Set(["sports"]));
    expect(await categories(["fixtures/feeds/sports.xml", "--category", "opinion"])).toEqual(
      new Set(["opinion"]),
    );
  });

  it("parse: a feed that cannot be read gives one line and a non-zero exit", async () => {
    const missing = await news(["parse", "fixtures/feeds/no-such-feed.xml"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/^Cannot read fixtures\/feeds\/no-such-feed\.xml: /);

    const notFeed = await news(["parse", "README.md"]);
    expect(notFeed.code).toBe(1);
    expect(notFeed.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("ingest: a line per feed and a summary table; feeds: each feed's health", async () => {
    const result = await news(["ingest"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("✔ ["))).toHaveLength(17);
    expect(result.stdout).toMatch(
      /fetched\s+not modified\s+failed\s+not due\s+new articles\s+updated articles/,
    );
    expect(result.stdout).toMatch(/\n17\s+0\s+0\s+0\s+241\s+0\s/);
    // The sample feeds' pictures are files of the site itself: taken as they are, none fetched.
    expect(result.stdout).toMatch(/^Pictures: \d+ taken, 0 unchanged, 0 failed/m);
    // The first run of the day does the site's upkeep (server/db/upkeep.ts); the next does not.
    expect(result.stdout).toContain("Daily upkeep: the database vacuumed and analysed.");

    // Feeds whose <ttl> has not passed are not due; the others are read again and change nothing.
    const again = await news(["ingest"]);
    const [fetched, , failed, notDue, inserted, updated] = (
      /\n(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(again.stdout) ?? []
    )
      .slice(1)
      .map(Number);
    expect((fetched ?? 0) + (notDue ?? 0)).toBe(17);
    expect([failed, inserted, updated]).toEqual([0, 0, 0]);
    expect(again.stdout).not.toContain("Daily upkeep");

    const feeds = await news(["feeds"]);
    expect(feeds.code).toBe(0);
    expect(feeds.stdout).toMatch(
      /health\s+category\s+feed\s+status\s+last result\s+last success\s+failures\s+next attempt/,
    );
    const healthy = feeds.stdout.split("\n").filter((l) => l.startsWith("ok "));
    expect(healthy).toHaveLength(17);
    for (const line of healthy) expect(line).toMatch(/\s200\s+stored \d+\s/);

    const pictures = await news(["pictures"]);
    expect(pictures.code).toBe(0);
    expect(pictures.stdout).toMatch(
      /^(\d+) picture addresses: 0 kept, \1 the site's own files, 0 not fetched yet, 0 failing\.$/m,
    );
    expect(pictures.stdout).toMatch(/^Picture folder .+: 0\.0 MB of 2048\.0 MB\.$/m);
    // Kept in a bucket instead (PICTURE_STORE=s3): the bucket's size, and no secret shown.
    const s3 = await startS3Server();
    try {
      await s3PictureStore(s3.storeConfig()).putOriginal(new Uint8Array(300 * 1024).fill(7));
      const inBucket = await news(["pictures"], s3.env());
      expect(inBucket.code).toBe(0);
      expect(inBucket.stdout).toContain(
        `Picture bucket s3://pictures/ at ${s3.endpoint}: 0.3 MB, uploads' originals not counted.`,
      );
      expect(inBucket.stdout + inBucket.stderr).not.toContain(s3.env().S3_SECRET_ACCESS_KEY);
    } finally {
      await s3.close();
    }
    // The sample feeds' pictures are the site's own files: no kept picture to make copies of.
    const copies = await news(["pictures", "--make-copies"]);
    expect(copies.code).toBe(0);
    expect(copies.stdout).toContain("Made 0 copies ahead of time for 0 kept pictures.");
  });

  it("feeds: shows a failing feed as failing", async () => {
    const file = path.join(dataDir, "feeds.json");
    fs.writeFileSync(
      file,
      JSON.stringify({ politics: ["http://127.0.0.1:59999/unreachable.xml"] }),
    );
    const ingest = await news(["ingest"], { FEEDS_FILE: file });
    expect(ingest.stdout).toContain("FETCH FAILED: Connection refused");
    expect(ingest.code).toBe(1);
    const feeds = await news(["feeds"], { FEEDS_FILE: file });
    expect(feeds.stdout).toMatch(
      /FAILING\s+politics\s+http:\/\/127\.0\.0\.1:59999\/unreachable\.xml\s+-\s+fetch failed\s+never\s+1\s/,
    );
  });

  it("refuses an invalid feeds file at start with a clear message", async () => {
    const file = path.join(dataDir, "bad-feeds.json");
    fs.writeFileSync(file, JSON.stringify({ gossip: ["https://example.org/x.xml"] }));
    const result = await news(["ingest"], { FEEDS_FILE: file });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid feeds file ${file}: unknown category "gossip"`);
  });

  it("messages: readers' messages, and suspected spam apart with --spam", async () => {
    expect((await news(["messages"])).stdout).toContain("No messages yet.");
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    await handle.migrate();
    await saveContactMessage(handle.db, {
      name: "Ana Reader",
      email: "ana@example.com",
      category: "news-tip",
      message: "A water main broke on Adams Avenue.",
    });
    await saveContactMessage(handle.db, {
      name: "Bot",
      email: "bot@example.com",
      category: null,
      message: "<script>alert(1)</script> http://a.example http://b.example",
      spamReason: "sent 12 ms after the form was shown",
    });
    await handle.close();
    const readers = await news(["messages"]);
    expect(readers.stdout).toContain("Ana Reader <ana@example.com> · news-tip");
    expect(readers.stdout).toContain("A water main broke on Adams Avenue.");
    expect(readers.stdout).not.toContain("Bot <");
    expect(readers.stdout).toContain("1 more kept as suspected spam: news messages --spam");
    const spam = await news(["messages", "--spam"]);
    expect(spam.stdout).toContain("suspected spam: sent 12 ms after the form was shown");
    expect(spam.stdout).not.toContain("Ana Reader");
    expect(spam.stdout).toContain("1 message from readers: news messages");
  });

  it("subscribers: a table, or CSV with --csv, of the newsletter's addresses", async () => {
    expect((await news(["subscribers"])).stdout).toContain("No subscribers yet.");
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    await handle.migrate();
    await addSubscriber(handle.db, "first@example.com");
    await addSubscriber(handle.db, "Second@Example.com");
    const confirmation = await requestSubscription(handle.db, "third@example.com", {
      now: new Date(),
      resendMinutes: 10,
    });
    await confirmSubscription(handle.db, confirmation?.token ?? "", new Date());
    await suppress(handle.db, "second@example.com", "unsubscribed");
    await handle.close();
    const table = await news(["subscribers"]);
    expect(table.stdout).toMatch(/email\s+status\s+signed up\s+confirmed\s+left\n/);
    expect(table.stdout).toMatch(/first@example\.com\s+pending\s/);
    expect(table.stdout).toMatch(/second@example\.com\s+unsubscribed\s/);
    expect(table.stdout).toMatch(/third@example\.com\s+confirmed\s/);
    expect(table.stdout).toContain("3 subscribers: 1 confirmed, 1 pending, 1 unsubscribed");
    const csv = await news(["subscribers", "--csv"]);
    expect(csv.code).toBe(0);
    // The newsroom's CSV rules (server/lib/csv.ts): cells quoted, CRLF line ends.
    const lines = csv.stdout.split("\r\n");
    expect(lines[0]).toBe('"email","status","subscribed_at","confirmed_at"');
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
      '"first@example.com","pending"',
      '"second@example.com","unsubscribed"',
      '"third@example.com","confirmed"',
      "",
    ]);
    expect(lines[1]).toMatch(/,"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",""$/);
    expect(lines[3]).toMatch(/Z","\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
  });

  it("newsletter: previews the next digest, sends it (or only says what it would) to the outbox", async () => {
    // Stories from the sample feeds, one confirmed reader (left by the subscribers test, or made here).
    expect((await news(["ingest"])).code).toBe(0);
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    await handle.migrate();
    const due = await requestSubscription(handle.db, "reader@example.com", {
      now: new Date(),
      resendMinutes: 10,
    });
    await confirmSubscription(handle.db, due?.token ?? "", new Date());
    const readers = await countAudience(handle.db);
    await handle.close();
    expect(readers).toBeGreaterThan(0);

    const file = path.join(dataDir, "preview", "digest.html");
    const preview = await news(["newsletter", "preview", "--out", file]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(
      `HTML in ${file}, plain text in ${file.replace(".html", ".txt")}`,
    );
    const html = fs.readFileSync(file, "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("Today&#x27;s Headlines");
    expect(html).toContain('href="http://127.0.0.1:3000/article/');
    expect(fs.readFileSync(file.replace(".html", ".txt"), "utf8")).toContain(
      "Unsubscribe: http://127.0.0.1:3000/newsletter/unsubscribe?token=preview",
    );

    const outbox = path.join(dataDir, "outbox");
    const dry = await news(["newsletter", "send", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`to ${readers} confirmed reader`);
    expect(dry.stdout).toContain("Nothing was sent (--dry-run).");
    expect(fs.existsSync(outbox)).toBe(false);

    const sent = await news(["newsletter", "send"]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(
      new RegExp(`^Sent issue \\d+ to the outbox folder ${outbox}: ${readers} sent, 0 bounced`),
    );
    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(readers);
    expect(files.every((f) => /^issue-\d+\.\d+@127\.0\.0\.1\.eml$/.test(f))).toBe(true);
  });

  it("resanitize: sanitises articles stored under an older policy again and says so", async () => {
    const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "the test" });
    await handle.migrate();
    const [first, second] = await handle.db.select({ id: articles.id }).from(articles).limit(2);
    await handle.db
      .update(articles)
      .set({ content: '<p onclick="alert(1)">x</p><script>alert(2)</script>', sanitizePolicy: 0 })
      .where(eq(articles.id, first?.id ?? ""));
    await handle.db
      .update(articles)
      .set({ sanitizePolicy: 0 })
      .where(eq(articles.id, second?.id ?? ""));
    await handle.close();

    const result = await news(["resanitize"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `Sanitised 2 articles again under HTML policy ${SANITIZE_POLICY_VERSION}: 1 article rewritten, the rest unchanged.\n`,
    );
    expect((await news(["resanitize"])).stdout).toBe(
      `Every stored article is already sanitised under HTML policy ${SANITIZE_POLICY_VERSION}.\n`,
    );
  });

  it("staff: adds accounts with a password shown once or read from stdin, lists, resets, removes", async () => {
    const added = await news(["staff", "add", "Chief@Example.org", "--role", "admin"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^Added chief@example\.org \(admin\)\.\nPassword, shown this once: [\w-]{20}\nThey sign in at \/newsroom\/sign-in\.\n$/,
    );
    const fromStdin = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "cli/news.ts", "staff", "add", "desk@example.org", "--password-stdin"],
        { env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir } },
      );
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.on("exit", (code) => resolve({ code, stdout }));
      child.stdin.end("a password from a manager\n");
    });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).not.toContain("Password, shown");

    const again = await news(["staff", "add", "chief@example.org"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("chief@example.org already has an account.\n");
    const list = await news(["staff", "list"]);
    expect(list.stdout).toMatch(/chief@example\.org\s+admin\s+\d{4}-\d\d-\d\d/);
    expect(list.stdout).toMatch(/desk@example\.org\s+editor\s/);
    expect((await news(["staff", "reset", "desk@example.org"])).stdout).toMatch(
      /^New password set for desk@example\.org; their sessions ended\.\nPassword, shown this once: /,
    );
    expect((await news(["staff", "remove", "desk@example.org"])).code).toBe(0);
    expect((await news(["staff", "remove", "desk@example.org"])).code).toBe(1);
    const bad = await news(["staff", "add", "x@example.org", "--role", "owner"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--role must be editor or admin");
  });
});

/**
 * `news ingest` on PostgreSQL when the database ends the session holding the ingest lock: the pass
 * stops between feeds, says so, and the run exits 1 (another process may be ingesting now).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn("TEST_DATABASE_URL is not set: the lost-lock ingest test was NOT run.");

describe.skipIf(!adminUrl)(
  "news ingest when the lock's connection is lost",
  { timeout: 60_000 },
  () => {
    const name = `news_cli_lock_${process.pid}`;
    let server: FixtureServer;
    let databaseUrl: string;
    let feedsFile: string;

    beforeAll(async () => {
      await adminQuery(adminUrl ?? "", `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl ?? "");
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      server = await startFixtureServer();
      const paths = ["/one.xml", "/two.xml", "/three.xml"];
      for (const feedPath of paths) {
        server.route(feedPath, async (_req, res) => {
          // The first feed asked for ends the lock holder's session before it answers.
          await endLockHolder(databaseUrl, INGEST_LOCK_ID);
          await new Promise((resolve) => setTimeout(resolve, 300));
          res.writeHead(200).end(rssFeed("F", [{ guid: feedPath, title: feedPath }]));
        });
      }
      feedsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "news-cli-lock-")), "feeds.json");
      fs.writeFileSync(
        feedsFile,
        JSON.stringify({ "local-news": paths.map((p) => server.url(p)) }),
      );
    });
    afterAll(async () => {
      await server?.close();
      if (feedsFile) fs.rmSync(path.dirname(feedsFile), { recursive: true, force: true });
      await adminQuery(adminUrl ?? "", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });

    it("stops between feeds, says so, and exits 1", async () => {
      const result = await news(["ingest"], {
        DATABASE_URL: databaseUrl,
        FEEDS_FILE: feedsFile,
        INGEST_CONCURRENCY: "1",
      });
      expect(result.stdout).toContain(
        "The database connection holding the ingest lock was lost: this pass stopped between feeds",
      );
      expect(result.code).toBe(1);
      expect(["/one.xml", "/two.xml", "/three.xml"].map((p) => server.hits(p))).toEqual([1, 0, 0]);
      expect(result.stdout).not.toContain("Blog:");
    });
  },
);
