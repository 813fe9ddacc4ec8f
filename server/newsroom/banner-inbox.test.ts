import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../config";
import { MIGRATIONS_FOLDER } from "../db/client";
import { breakingBanner, contactMessages, pollVotes, staffAudit } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { recordVote, saveContactMessage } from "../forms/repository";
import { readCacheFor } from "../news/read-cache";
import { INBOX_PAGE_SIZE } from "../../shared/newsroom";
import {
  BAD_LINK,
  bannerCacheHeaders,
  bannerLink,
  bannerToShow,
  clearBanner,
  setBanner,
  storedBanner,
} from "./banner";
import { deleteMessage, inboxMessage, inboxPage, markHandled, pollSummaries } from "./inbox";
import type { NewsroomServices } from "./action";

reportSkippedPostgres();

const editor = { id: 1, email: "editor@example.org" };
const SITE_TEXT = "City Council meets Tuesday (sample headline)";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const POLL = {
  id: "priorities",
  question: "What is the most important issue facing San Diego?",
  options: ["Housing affordability", "Homelessness", "Transportation"],
};

describe("the banner's link", () => {
  it("takes http(s) addresses and paths on the site", () => {
    expect(bannerLink("")).toEqual({ ok: true, link: null });
    expect(bannerLink("  /local-news ")).toEqual({ ok: true, link: "/local-news" });
    expect(bannerLink("/article/abc?x=1#top")).toEqual({ ok: true, link: "/article/abc?x=1#top" });
    expect(bannerLink("https://www.sandiego.gov/alerts")).toEqual({
      ok: true,
      link: "https://www.sandiego.gov/alerts",
    });
    expect(bannerLink("HTTP://Example.org")).toEqual({ ok: true, link: "http://example.org/" });
  });

  it("refuses other schemes, other hosts in disguise and odd text", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "//evil.example/path",
      "/\\evil.example",
      "local-news",
      "ftp://example.org/file",
      "https://user:pass@example.org/",
      "https://",
      "/a b",
      '/x"onmouseover="alert(1)',
      `/${"x".repeat(600)}`,
      "/e\u0000",
      "/e%00",
      "/e%0D%0ASet-Cookie:x=1",
      "https://example.org/\u0000",
      "https://example.org/%7F",
    ]) {
      expect(bannerLink(bad), bad).toEqual({ ok: false });
    }
  });
});

describe("the home page's caching while a banner is up", () => {
  const now = new Date("2026-11-26T20:00:00Z");
  const banner = (ms: number | null) => ({
    text: "x",
    link: null,
    expiresAt: ms === null ? null : new Date(now.getTime() + ms),
  });

  it("keeps the page no longer than the banner has left, in every cache", () => {
    const kept = (seconds: number) => ({
      "Cache-Control": `public, no-cache, s-maxage=${seconds}`,
      "CDN-Cache-Control": `public, max-age=${seconds}`,
    });
    expect(bannerCacheHeaders(banner(30_500), now, 60)).toEqual(kept(31));
    expect(bannerCacheHeaders(banner(5 * MINUTE), now, 60)).toEqual(kept(300));
    // Past its end by the time the header is made: the shortest life there is.
    expect(bannerCacheHeaders(banner(-5), now, 60)).toEqual(kept(1));
    // A page cache kept an hour: shortened for an end within that hour.
    expect(bannerCacheHeaders(banner(50 * MINUTE), now, 3600)).toEqual(kept(3000));
  });

  it("leaves the site's header alone when the banner outlives every cache, or has no end", () => {
    expect(bannerCacheHeaders(banner(2 * HOUR), now, 60)).toBeNull();
    expect(bannerCacheHeaders(banner(null), now, 60)).toBeNull();
    expect(bannerCacheHeaders(null, now, 60)).toBeNull();
  });
});

describe.each(testDatabases())("the banner and the inbox on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let announced = 0;
  let services: NewsroomServices;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.onChange(() => announced++);
    services = { db: handle.db, announceChange: () => handle.announceChange() };
    // The web process's read cache, so the banner is read as the home page reads it.
    await readCacheFor(
      { readCache: { maxBytes: 1 << 20 }, pageCache: { ttlSeconds: 60 } } as Config,
      handle,
    );
  });
  afterAll(() => handle?.dispose());
  beforeEach(async () => {
    await handle.db.delete(breakingBanner);
    await handle.db.delete(contactMessages);
    await handle.db.delete(pollVotes);
    await handle.db.delete(staffAudit);
    await handle.announceChange();
  });

  const audit = async () =>
    (await handle.db.select().from(staffAudit).orderBy(staffAudit.id)).map((e) => ({
      who: e.staffEmail,
      action: e.action,
      subject: e.subject,
      before: e.before,
      after: e.after,
    }));
  /** Takes an announcement to arrive (PostgreSQL's NOTIFY comes back on another connection). */
  const announcedSince = async (before: number) => {
    for (let i = 0; i < 50 && announced === before; i++)
      await new Promise((r) => setTimeout(r, 20));
    return announced > before;
  };

  it("shows staff's banner at once, until it expires, then the site's text", async () => {
    const now = new Date();
    expect(await bannerToShow(handle.db, SITE_TEXT, now)).toEqual({
      text: SITE_TEXT,
      link: null,
      expiresAt: null,
    });
    expect(await bannerToShow(handle.db, "  ", now)).toBeNull();

    const end = new Date(now.getTime() + 2 * HOUR);
    const before = announced;
    expect(
      await setBanner(
        services,
        editor,
        { text: "  Road   closed on I-5 ", link: "/local-news", expiresAt: end },
        now,
      ),
    ).toEqual({ ok: true, message: "The banner is up on the home page." });
    expect(await announcedSince(before)).toBe(true);
    // The cached read was dropped by the announcement: the new banner, at once.
    expect(await bannerToShow(handle.db, SITE_TEXT, now)).toEqual({
      text: "Road closed on I-5",
      link: "/local-news",
      expiresAt: end,
    });
    // Read from the cache, still refused once past its end.
    expect(await bannerToShow(handle.db, SITE_TEXT, new Date(end.getTime() + 1))).toEqual({
      text: SITE_TEXT,
      link: null,
      expiresAt: null,
    });

    // Replaced, then cleared: the site's text again.
    const later = new Date(now.getTime() + 3 * HOUR);
    const beforeChange = announced;
    expect(
      await setBanner(services, editor, { text: "Fire update", link: "", expiresAt: later }, now),
    ).toMatchObject({ ok: true });
    expect(await announcedSince(beforeChange)).toBe(true);
    expect((await bannerToShow(handle.db, SITE_TEXT, now))?.text).toBe("Fire update");
    const beforeClear = announced;
    expect(await clearBanner(services, editor)).toEqual({
      ok: true,
      message: "The banner is cleared.",
    });
    expect(await announcedSince(beforeClear)).toBe(true);
    expect((await bannerToShow(handle.db, SITE_TEXT, now))?.text).toBe(SITE_TEXT);
    expect(await storedBanner(handle.db)).toBeNull();
    expect(await clearBanner(services, editor)).toMatchObject({ ok: false });

    expect(await audit()).toEqual([
      {
        who: editor.email,
        action: "banner.set",
        subject: "breaking-banner",
        before: null,
        after: { text: "Road closed on I-5", link: "/local-news", expiresAt: end.toISOString() },
      },
      {
        who: editor.email,
        action: "banner.set",
        subject: "breaking-banner",
        before: { text: "Road closed on I-5", link: "/local-news", expiresAt: end.toISOString() },
        after: { text: "Fire update", link: null, expiresAt: later.toISOString() },
      },
      {
        who: editor.email,
        action: "banner.clear",
        subject: "breaking-banner",
        before: { text: "Fire update", link: null, expiresAt: later.toISOString() },
        after: null,
      },
    ]);
  });

  it("refuses a banner without text, with a bad link or an end out of bounds", async () => {
    const now = new Date();
    const soon = new Date(now.getTime() + HOUR);
    const cases: [Parameters<typeof setBanner>[2], string][] = [
      [{ text: " ", link: "", expiresAt: soon }, "Write the banner's text."],
      [{ text: "x".repeat(201), link: "", expiresAt: soon }, "Keep the text under 200 characters."],
      [{ text: "Fire", link: "javascript:alert(1)", expiresAt: soon }, BAD_LINK],
      [{ text: "Fire", link: "/e\u0000", expiresAt: soon }, BAD_LINK],
      [{ text: "\u0000 \u0000", link: "", expiresAt: soon }, "Write the banner's text."],
      [
        { text: "Fire", link: "", expiresAt: null },
        "Give the date and time the banner ends (San Diego time).",
      ],
      [
        { text: "Fire", link: "", expiresAt: new Date(now.getTime() + 4 * MINUTE) },
        "Give an end at least 5 minutes from now (San Diego time).",
      ],
      [
        { text: "Fire", link: "", expiresAt: new Date(now.getTime() + 8 * 24 * HOUR) },
        "A banner lasts at most 7 days.",
      ],
    ];
    for (const [input, error] of cases) {
      expect(await setBanner(services, editor, input, now)).toEqual({ ok: false, error });
    }
    expect(await storedBanner(handle.db)).toBeNull();
    expect(await audit()).toEqual([]);
  });

  it("lists messages newest first, a page at a time", async () => {
    const count = INBOX_PAGE_SIZE + 3;
    for (let i = 0; i < count; i++) {
      const { id } = await saveContactMessage(handle.db, {
        name: `Reader ${i}`,
        email: `Reader${i}@Example.org`,
        category: null,
        message: `Message ${i}`,
      });
      await handle.db
        .update(contactMessages)
        .set({ createdAt: new Date(Date.UTC(2026, 10, 1) + i * HOUR) })
        .where(eq(contactMessages.id, id));
    }
    const first = await inboxPage(handle.db, 1);
    expect(first).toMatchObject({ page: 1, pages: 2, total: count });
    expect(first.messages).toHaveLength(INBOX_PAGE_SIZE);
    expect(first.messages[0]).toMatchObject({
      name: `Reader ${count - 1}`,
      email: `reader${count - 1}@example.org`,
      handledAt: null,
    });
    const second = await inboxPage(handle.db, 2);
    expect(second.messages.map((m) => m.name)).toEqual(["Reader 2", "Reader 1", "Reader 0"]);
    // Past the end or nonsense: the nearest page there is.
    expect((await inboxPage(handle.db, 99)).page).toBe(2);
    expect((await inboxPage(handle.db, Number.NaN)).page).toBe(1);
  });

  it("marks a message handled and open again, and deletes it, auditing which and not what", async () => {
    const { id } = await saveContactMessage(handle.db, {
      name: "<img src=x onerror=alert(1)> Zelda Quintanilla",
      email: "zq.reader@example.org",
      category: "News tip",
      message: "There is a fire behind the Kettner bakery",
    });
    const now = new Date("2026-11-26T20:00:00Z");
    expect(await markHandled(handle.db, editor, id, true, now)).toEqual({
      ok: true,
      message: "The message is marked handled.",
    });
    expect(await inboxMessage(handle.db, id)).toMatchObject({
      handledAt: now,
      handledBy: editor.email,
    });
    expect(await markHandled(handle.db, editor, id, true, now)).toMatchObject({ ok: false });
    expect(await markHandled(handle.db, editor, id, false, now)).toMatchObject({ ok: true });
    expect(await inboxMessage(handle.db, id)).toMatchObject({ handledAt: null, handledBy: null });

    expect(await deleteMessage(handle.db, editor, id)).toEqual({
      ok: true,
      message: "The message is deleted.",
    });
    expect(await inboxMessage(handle.db, id)).toBeNull();
    expect(await deleteMessage(handle.db, editor, id)).toMatchObject({ ok: false });
    expect(await markHandled(handle.db, editor, 999_999, true)).toMatchObject({ ok: false });

    const entries = await audit();
    expect(entries.map((e) => e.action)).toEqual([
      "inbox.handled",
      "inbox.unhandled",
      "inbox.delete",
    ]);
    expect(entries[0]).toMatchObject({
      subject: `contact-message:${id}`,
      before: { handled: false, by: null },
      after: { handled: true, by: editor.email },
    });
    expect(entries[2]).toEqual({
      who: editor.email,
      action: "inbox.delete",
      subject: `contact-message:${id}`,
      before: {
        received: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        category: "News tip",
        handled: false,
        automated: false,
      },
      after: null,
    });
    // Nothing of what the reader wrote is left anywhere in the audit table, in any column.
    const everything = JSON.stringify(await handle.db.select().from(staffAudit));
    for (const words of ["Zelda", "Quintanilla", "zq.reader", "fire", "Kettner", "onerror"]) {
      expect(everything).not.toContain(words);
    }
  });

  it("strips the reader's words from deletions audited before, keeping which and when", async () => {
    await handle.db.insert(staffAudit).values([
      {
        staffId: 1,
        staffEmail: editor.email,
        action: "inbox.delete",
        subject: "contact-message:12",
        before: {
          name: "Yolanda Reyes",
          email: "yreyes@example.org",
          category: "Corrections",
          message: "My address is 12 Elm Street",
          spamReason: "Looks automated: two links to yreyes.example",
          handled: true,
          received: "2026-11-20T17:00:00.000Z",
        },
        after: null,
      },
      {
        staffId: 1,
        staffEmail: editor.email,
        action: "story.take-down",
        subject: "some-story",
        before: { down: false },
        after: { down: true, reason: "Legal request" },
      },
    ]);
    // The migration's own statements, as written, run again over these rows.
    const migration = fs.readFileSync(
      path.join(MIGRATIONS_FOLDER, "0010_audit_without_readers_words.sql"),
      "utf8",
    );
    const updates = migration
      .split("--> statement-breakpoint")
      .filter((statement) => /^\s*(--.*\n)*\s*UPDATE/.test(statement));
    expect(updates).toHaveLength(1);
    for (const statement of updates) await handle.db.execute(sql.raw(statement));
    const rows = await audit();
    expect(rows).toEqual([
      {
        who: editor.email,
        action: "inbox.delete",
        subject: "contact-message:12",
        before: {
          received: "2026-11-20T17:00:00.000Z",
          category: "Corrections",
          handled: true,
          automated: true,
        },
        after: null,
      },
      {
        who: editor.email,
        action: "story.take-down",
        subject: "some-story",
        before: { down: false },
        after: { down: true, reason: "Legal request" },
      },
    ]);
    const everything = JSON.stringify(rows);
    for (const words of ["Yolanda", "yreyes", "Elm Street", "two links"]) {
      expect(everything).not.toContain(words);
    }
  });

  it("counts the poll's votes per option as the public poll names them, with totals", async () => {
    const vote = (pollId: string, option: string, voter: string) =>
      recordVote(handle.db, { pollId, option, voterId: voter });
    await vote(POLL.id, "Homelessness", "a");
    await vote(POLL.id, "Homelessness", "b");
    await vote(POLL.id, "Housing affordability", "c");
    await vote("old-poll", "Parks", "a");

    const [current, earlier, ...rest] = await pollSummaries(handle.db, POLL);
    expect(rest).toEqual([]);
    expect(current).toEqual({
      pollId: POLL.id,
      question: POLL.question,
      results: {
        total: 3,
        tallies: [
          { option: "Housing affordability", votes: 1, percent: 33 },
          { option: "Homelessness", votes: 2, percent: 67 },
          { option: "Transportation", votes: 0, percent: 0 },
        ],
      },
    });
    expect(earlier).toEqual({
      pollId: "old-poll",
      question: null,
      results: { total: 1, tallies: [{ option: "Parks", votes: 1, percent: 100 }] },
    });

    await handle.db.delete(pollVotes);
    const [empty] = await pollSummaries(handle.db, POLL);
    expect(empty?.results.total).toBe(0);
    expect(empty?.results.tallies.map((t) => t.votes)).toEqual([0, 0, 0]);
  });
});
