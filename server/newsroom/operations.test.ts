import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds, newsletterSubscribers, staffAudit } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { feedHealthReport } from "../ingest/feed-health";
import { INGEST_LOCK_ID } from "../ingest/ingest";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { NEWSLETTER_LOCK_ID } from "../newsletter/send";
import type { NewsletterMail } from "../newsletter/signup";
import {
  confirmSubscription,
  requestSubscription,
  unsubscribe,
  unsubscribeToken,
} from "../newsletter/subscriptions";
import type { OutgoingMail } from "../newsletter/transport";
import { upsertArticle } from "../news/repository";
import {
  recentIssues,
  subscriberCounts,
  subscriberPage,
  todaysDigest,
} from "../newsletter/newsroom";
import { AUDIT, lastIngest, newsroomOperations, type NewsroomOperations } from "./operations";

reportSkippedPostgres();

/**
 * The admins' two buttons on a real database: an ingest pass and today's digest start in the
 * background under the locks the schedules take (so a second press while one runs starts nothing),
 * are written to the audit log, and today's digest pressed again reaches only readers who have not
 * had it: never anyone twice, never an unsubscribed reader.
 */

const logger = pino({ level: process.env.DEBUG_OPS ? "error" : "silent" });
const admin = { id: 1, email: "chief@example.org" };
const SITE_URL = "https://news.example.com";

/** A mailer that keeps what it is handed: who got which Message-ID. */
function recordingMail(): NewsletterMail & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    mailer: {
      destination: "memory",
      send: (mail) => {
        sent.push(mail);
        return Promise.resolve();
      },
      close: () => {},
    },
    site: { siteName: "Ledger", siteUrl: SITE_URL, from: "Ledger <news@example.com>" },
    resendMinutes: 10,
    keepIssuesDays: 90,
  };
}

describe.each(testDatabases())("the newsroom's operations on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  let mail: ReturnType<typeof recordingMail>;
  let operations: NewsroomOperations;
  const now = new Date();

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    server = await startFixtureServer();
    server.route("/local.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(
        rssFeed("Harbor", [
          { guid: "h-1", title: "Harbor story one", date: now.toUTCString() },
          { guid: "h-2", title: "Harbor story two", date: now.toUTCString() },
        ]),
      );
    });
    mail = recordingMail();
    operations = newsroomOperations({
      database: handle,
      logger,
      pass: {
        siteUrl: SITE_URL,
        siteName: "Ledger",
        sources: [{ url: server.url("/local.xml"), category: "local-news" }],
        concurrency: 2,
      },
      mail,
    });
  });
  afterAll(async () => {
    await operations?.idle();
    await server?.close();
    await handle?.dispose();
  });

  it("starts an ingest pass in the background, audited, and reports the feeds' health", async () => {
    expect(await feedHealthReport(handle.db, operations.feedSources)).toEqual([]);
    expect(await operations.startIngestPass(admin)).toBe("started");
    await operations.idle();

    const report = await feedHealthReport(handle.db, operations.feedSources);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({
      health: "ok",
      category: "local-news",
      url: server.url("/local.xml"),
      status: 200,
      lastResult: "stored 2",
      failures: 0,
      lastError: null,
    });
    // A feed no longer in the configuration is told apart.
    expect((await feedHealthReport(handle.db, []))[0]?.health).toBe("not configured");

    const audit = await handle.db.select().from(staffAudit).orderBy(staffAudit.id);
    expect(audit.map((a) => a.action)).toEqual([AUDIT.ingestStarted, AUDIT.ingestFinished]);
    expect(audit[1]).toMatchObject({ staffEmail: admin.email });
    expect(audit[1]?.after).toMatchObject({ fetched: 1, inserted: 2, failed: 0 });

    const last = await lastIngest(handle.db);
    expect(last.lastReadAt).toBeInstanceOf(Date);
    expect(last.lastNewsroomPass).toMatchObject({ by: admin.email, totals: { inserted: 2 } });
  });

  it("starts no pass while another holds the ingest lock, and says so", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const holder = handle.withLock(INGEST_LOCK_ID, { wait: false }, async () => {
      holding();
      await held;
    });
    await holds;
    const attempts = await handle.db.select().from(feeds);
    expect(await operations.startIngestPass(admin)).toBe("busy");
    release();
    await holder;
    await operations.idle();
    // Nothing was read and nothing audited.
    expect(await handle.db.select().from(feeds)).toEqual(attempts);
    const audit = await handle.db.select().from(staffAudit);
    expect(audit.filter((a) => a.action === AUDIT.ingestStarted)).toHaveLength(1);
  });

  /** Signs a reader up and confirms them; their unsubscribe links' public id. */
  async function confirmedReader(email: string): Promise<string> {
    const pending = await requestSubscription(handle.db, email, { now, resendMinutes: 10 });
    if (!pending) throw new Error(`no confirmation for ${email}`);
    expect((await confirmSubscription(handle.db, pending.token, now)).confirmed).toBe(true);
    return pending.publicId;
  }

  const mailsTo = (email: string) => mail.sent.filter((m) => m.to === email);

  it("sends today's digest once to each reader, however often it is pressed", async () => {
    await upsertArticle(handle.db, {
      id: "digest-story",
      category: "business",
      link: "https://feeds.example.org/digest-story",
      title: "A story for the digest",
      excerpt: "Excerpt",
      content: "<p>Body</p>",
      image: null,
      picture: null,
      author: "Staff",
      publishedAt: now,
    });
    const first = await confirmedReader("first@example.org");
    const leaving = await confirmedReader("leaving@example.org");
    await requestSubscription(handle.db, "pending@example.org", { now, resendMinutes: 10 });

    // What the confirmation says before the first press: two confirmed readers will get it.
    expect(await todaysDigest(handle.db, now)).toEqual({ state: "not-made", readers: 2 });
    expect(await operations.startDigest(admin)).toBe("started");
    await operations.idle();
    expect(await todaysDigest(handle.db, now)).toEqual({ state: "sent", readers: 0 });
    expect(mailsTo("first@example.org")).toHaveLength(1);
    expect(mailsTo("leaving@example.org")).toHaveLength(1);
    expect(mailsTo("pending@example.org")).toHaveLength(0);

    // Pressed again: everyone has had it.
    expect(await operations.startDigest(admin)).toBe("sent-already");
    await operations.idle();
    expect(mail.sent).toHaveLength(2);

    // A reader who confirms later gets today's digest; one who left does not get it again.
    const token = await unsubscribeToken(handle.db, leaving);
    expect((await unsubscribe(handle.db, token, now)).unsubscribed).toBe(true);
    await confirmedReader("late@example.org");
    expect(await todaysDigest(handle.db, now)).toEqual({ state: "sent", readers: 1 });
    expect(await operations.startDigest(admin)).toBe("started");
    await operations.idle();
    expect(mailsTo("late@example.org")).toHaveLength(1);
    expect(mailsTo("first@example.org")).toHaveLength(1);
    expect(mailsTo("leaving@example.org")).toHaveLength(1);
    expect(mail.sent).toHaveLength(3);
    // Each reader's copy of the one issue carries the same Message-ID in every run.
    expect(new Set(mail.sent.map((m) => m.messageId)).size).toBe(3);

    const [issue, ...older] = await recentIssues(handle.db);
    expect(older).toEqual([]);
    expect(issue?.deliveries).toEqual({ queued: 0, sent: 3, bounced: 0, failed: 0, skipped: 0 });
    expect(issue?.completedAt).toBeInstanceOf(Date);

    const audit = await handle.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.action, AUDIT.digestFinished));
    expect(audit.map((a) => (a.after as { sent: number }).sent)).toEqual([2, 1]);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("starts no digest while another process sends one", async () => {
    await confirmedReader("waiting@example.org");
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const holder = handle.withLock(NEWSLETTER_LOCK_ID, { wait: false }, async () => {
      holding();
      await held;
    });
    await holds;
    expect(await operations.startDigest(admin)).toBe("busy");
    release();
    await holder;
    await operations.idle();
    expect(mailsTo("waiting@example.org")).toHaveLength(0);
  });

  it("stops a pass it started when the process stops, leaving the feeds due", async () => {
    let answer = () => {};
    server.route("/slow.xml", (_req, res) => {
      answer = () =>
        res
          .writeHead(200, { "content-type": "application/rss+xml" })
          .end(rssFeed("Slow", [{ guid: "s-1", title: "Slow story", date: now.toUTCString() }]));
    });
    server.route("/never.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed("Never", []));
    });
    const stopping = newsroomOperations({
      database: handle,
      logger,
      pass: {
        siteUrl: SITE_URL,
        siteName: "Ledger",
        sources: [
          { url: server.url("/slow.xml"), category: "sports" },
          { url: server.url("/never.xml"), category: "sports" },
        ],
        concurrency: 1,
      },
      mail,
    });
    expect(await stopping.startIngestPass(admin)).toBe("started");
    await expect.poll(() => server.hits("/slow.xml")).toBe(1);
    // Stopping does not wait for the slow feed: its read is cut short.
    await stopping.stop();
    answer();
    // The feed under way stays due (not a failure); the next one was never asked for.
    const [slow] = await handle.db
      .select()
      .from(feeds)
      .where(eq(feeds.url, server.url("/slow.xml")));
    expect(slow).toMatchObject({ consecutiveFailures: 0, lastSuccessAt: null });
    expect(server.hits("/never.xml")).toBe(0);
  });

  it("counts subscribers by state and lists them a page at a time, newest first", async () => {
    const counts = await subscriberCounts(handle.db);
    expect(counts).toEqual({
      pending: 1,
      confirmed: 3,
      unsubscribed: 1,
      suppressed: { unsubscribed: 1, bounced: 0 },
    });
    const page1 = await subscriberPage(handle.db, 1, 2);
    expect(page1).toMatchObject({ total: 5, page: 1, pages: 3 });
    expect(page1.rows.map((r) => r.email)).toEqual(["waiting@example.org", "late@example.org"]);
    const page3 = await subscriberPage(handle.db, 9, 2);
    expect(page3.page).toBe(3);
    expect(page3.rows.map((r) => r.email)).toEqual(["first@example.org"]);
    const left = (await subscriberPage(handle.db, 2, 2)).rows.find(
      (r) => r.email === "leaving@example.org",
    );
    expect(left).toMatchObject({ status: "unsubscribed", suppressed: "unsubscribed" });
    const rows = await handle.db.select().from(newsletterSubscribers);
    expect(rows).toHaveLength(5);
  });
});
