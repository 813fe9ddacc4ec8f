import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  articles,
  blockRules,
  corrections,
  feeds,
  pictures,
  staffAudit,
  storyPins,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import type { FeedSource } from "../ingest/feeds-config";
import { runIngestPass } from "../ingest/ingest";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import {
  articleById,
  correctionsOf,
  isTakenDown,
  latestArticles,
  latestCorrections,
  relatedArticles,
} from "../news/repository";
import { homeLists } from "../news/home-lists";
import { archiveArticles } from "../news/archive";
import { searchSite } from "../news/search";
import { articleSitemap, recentForNewsSitemap } from "../seo/queries";
import type { NewsroomServices } from "./action";
import { addCorrection } from "./corrections";
import { addBlockRule, applyBlockRule } from "./block-rule-actions";
import { movePin, pin, unpin } from "./pins";
import { restore, setHeadline, setPictureChoice, takeDown } from "./stories";
import { listStories, storyDetail } from "./story-reads";

reportSkippedPostgres();

const logger = pino({ level: "silent" });
const editor = { id: 1, email: "editor@example.org" };
const DAY = 86_400_000;

/** Five stories in Local News, one a day, newest "local 4". */
const ITEMS = Array.from({ length: 5 }, (_, i) => ({
  guid: `local-${i}`,
  title: `Harbor story ${i}`,
  date: new Date(Date.now() - (5 - i) * 3600_000).toUTCString(),
}));

describe.each(testDatabases())("the newsroom's story actions on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  let body = "";
  let announced = 0;
  let services: NewsroomServices;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.onChange(() => announced++);
    services = { db: handle.db, announceChange: () => handle.announceChange() };
    server = await startFixtureServer();
    server.route("/local.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(body);
    });
  });
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    await handle.db.delete(storyPins);
    await handle.db.delete(corrections);
    await handle.db.delete(blockRules);
    await handle.db.delete(articles);
    await handle.db.delete(feeds);
    await handle.db.delete(staffAudit);
    body = rssFeed("Local", ITEMS);
  });

  const source = (): FeedSource => ({ url: server.url("/local.xml"), category: "local-news" });
  const ingest = () =>
    runIngestPass([source()], {
      database: handle,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      force: true,
    });
  const idOf = async (title: string) => {
    const [row] = await handle.db
      .select({ id: articles.id })
      .from(articles)
      .where(eq(articles.title, title));
    if (!row) throw new Error(`no story "${title}"`);
    return row.id;
  };
  const titles = (list: { title: string }[]) => list.map((a) => a.title);
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

  it("takes a story down everywhere, keeps it down through ingest, and restores it", async () => {
    await ingest();
    const id = await idOf("Harbor story 2");
    const year = new Date(ITEMS[2]?.date ?? "").getFullYear();
    const before = announced;

    expect(await takeDown(services, editor, id, "  Legal   request ")).toEqual({
      ok: true,
      message: "The story is down.",
    });
    expect(await announcedSince(before)).toBe(true);
    expect(await articleById(handle.db, id)).toBeUndefined();
    expect(await isTakenDown(handle.db, id)).toBe(true);
    expect(titles(await latestArticles(handle.db, { limit: 10 }))).not.toContain("Harbor story 2");
    expect(
      titles(await latestArticles(handle.db, { category: "local-news", limit: 10 })),
    ).toHaveLength(4);
    const home = await homeLists(handle.db);
    for (const list of [home.headlines, home.featured, home.recent]) {
      expect(titles(list)).not.toContain("Harbor story 2");
    }
    const other = await articleById(handle.db, await idOf("Harbor story 1"));
    if (!other) throw new Error("story 1 missing");
    expect((await relatedArticles(handle.db, other)).map((a) => a.id)).not.toContain(id);
    expect(
      (await archiveArticles(handle.db, { year, limit: 30, offset: 0 })).articles.map((a) => a.id),
    ).not.toContain(id);
    const search = await searchSite(handle.db, "harbor", { page: 1 });
    expect(search.total).toBe(4);
    expect(
      (await articleSitemap(handle.db, new Date().toISOString().slice(0, 7))).map((e) => e.path),
    ).not.toContain(`/article/${id}`);
    expect((await recentForNewsSitemap(handle.db, new Date())).map((e) => e.id)).not.toContain(id);

    // The feed brings the item back, edited: it is updated, and stays down.
    body = rssFeed(
      "Local",
      ITEMS.map((item) =>
        item.guid === "local-2" ? { ...item, title: "Harbor story 2, updated" } : item,
      ),
    );
    expect(await ingest()).toMatchObject({ inserted: 0, updated: 1 });
    expect(await articleById(handle.db, id)).toBeUndefined();
    expect(await isTakenDown(handle.db, id)).toBe(true);
    expect((await storyDetail(handle.db, id))?.takenDown?.reason).toBe("Legal request");
    expect(await takeDown(services, editor, id, "again")).toEqual({
      ok: false,
      error: "The story is already down.",
    });

    expect(await restore(services, editor, id)).toMatchObject({ ok: true });
    expect((await articleById(handle.db, id))?.title).toBe("Harbor story 2, updated");
    expect(await isTakenDown(handle.db, id)).toBe(false);
    expect((await searchSite(handle.db, "harbor", { page: 1 })).total).toBe(5);
    expect(await audit()).toEqual([
      {
        who: editor.email,
        action: "story.take-down",
        subject: id,
        before: { down: false },
        after: { down: true, reason: "Legal request" },
      },
      {
        who: editor.email,
        action: "story.restore",
        subject: id,
        before: { down: true, reason: "Legal request" },
        after: { down: false },
      },
    ]);
    expect(await takeDown(services, editor, id, "")).toEqual({
      ok: false,
      error: "Say why the story comes down.",
    });
    expect(await takeDown(services, editor, "no-such-story", "Legal")).toMatchObject({ ok: false });
  });

  it("publishes dated corrections, newest first, and lists only stories on the site", async () => {
    await ingest();
    const first = await idOf("Harbor story 1");
    const second = await idOf("Harbor story 3");
    const t = Date.now();
    await addCorrection(
      services,
      editor,
      first,
      "An earlier version misspelled the harbor's name.",
      new Date(t - 2 * DAY),
    );
    await addCorrection(
      services,
      editor,
      first,
      "The meeting is on Tuesday, not Monday.",
      new Date(t - DAY),
    );
    await addCorrection(services, editor, second, "The vote was 5 to 4.", new Date(t));
    expect((await correctionsOf(handle.db, first)).map((c) => c.text)).toEqual([
      "The meeting is on Tuesday, not Monday.",
      "An earlier version misspelled the harbor's name.",
    ]);
    const listed = await latestCorrections(handle.db, 50);
    expect(listed.map((c) => [c.article.title, c.date])).toEqual([
      ["Harbor story 3", new Date(t).toISOString()],
      ["Harbor story 1", new Date(t - DAY).toISOString()],
      ["Harbor story 1", new Date(t - 2 * DAY).toISOString()],
    ]);
    await takeDown(services, editor, second, "Legal request");
    expect((await latestCorrections(handle.db, 50)).map((c) => c.article.id)).toEqual([
      first,
      first,
    ]);
    expect(await addCorrection(services, editor, first, "short")).toMatchObject({ ok: false });
  });

  it("overrides a headline and the picture without losing the feed's, through ingest", async () => {
    await ingest();
    const id = await idOf("Harbor story 4");
    expect(await setHeadline(services, editor, id, "Port board approves the plan")).toMatchObject({
      ok: true,
    });
    expect((await articleById(handle.db, id))?.title).toBe("Port board approves the plan");
    expect((await searchSite(handle.db, "port board", { page: 1 })).total).toBe(1);
    body = rssFeed(
      "Local",
      ITEMS.map((item) =>
        item.guid === "local-4" ? { ...item, title: "Harbor story 4 (v2)" } : item,
      ),
    );
    expect(await ingest()).toMatchObject({ updated: 1 });
    expect(await storyDetail(handle.db, id)).toMatchObject({
      title: "Port board approves the plan",
      feedTitle: "Harbor story 4 (v2)",
    });
    // An empty headline gives the story the feed's headline back.
    expect(await setHeadline(services, editor, id, " ")).toMatchObject({ ok: true });
    expect(await storyDetail(handle.db, id)).toMatchObject({
      title: "Harbor story 4 (v2)",
      feedTitle: null,
    });

    // The default picture, then the feed's again (as the picture pass kept it).
    const kept = { kind: "site" as const, src: "/images/kept.jpg" };
    await handle.db
      .insert(pictures)
      .values({ url: "https://pictures.example.org/4.jpg", picture: kept });
    await handle.db
      .update(articles)
      .set({ image: "https://pictures.example.org/4.jpg", picture: kept })
      .where(eq(articles.id, id));
    expect(await setPictureChoice(services, editor, id, "default")).toMatchObject({ ok: true });
    expect((await articleById(handle.db, id))?.picture).toBeNull();
    expect(await setPictureChoice(services, editor, id, "feed")).toMatchObject({ ok: true });
    expect((await articleById(handle.db, id))?.picture).toEqual(kept);
    expect((await audit()).map((e) => [e.action, e.after])).toEqual([
      [
        "story.headline",
        { headline: "Port board approves the plan", feedHeadline: "Harbor story 4" },
      ],
      ["story.headline", { headline: "Harbor story 4 (v2)", feedHeadline: "Harbor story 4 (v2)" }],
      ["story.picture", { picture: "default" }],
      ["story.picture", { picture: "feed" }],
    ]);
  });

  it("pins up to five stories first in the headlines and the slider, in order, until they expire", async () => {
    await ingest();
    const oldest = await idOf("Harbor story 0");
    const next = await idOf("Harbor story 1");
    const soon = new Date(Date.now() + DAY);
    expect(await pin(services, editor, oldest, soon)).toMatchObject({ ok: true });
    expect(await pin(services, editor, next, soon)).toMatchObject({ ok: true });
    let home = await homeLists(handle.db);
    expect(titles(home.headlines).slice(0, 2)).toEqual(["Harbor story 0", "Harbor story 1"]);
    expect(titles(home.featured).slice(0, 2)).toEqual(["Harbor story 0", "Harbor story 1"]);
    expect(new Set(home.headlines.map((a) => a.id)).size).toBe(home.headlines.length);

    expect(await movePin(services, editor, next, "up")).toMatchObject({ ok: true });
    home = await homeLists(handle.db);
    expect(titles(home.headlines).slice(0, 2)).toEqual(["Harbor story 1", "Harbor story 0"]);
    expect(await movePin(services, editor, next, "up")).toMatchObject({ ok: false });

    for (const n of [2, 3, 4]) {
      expect(await pin(services, editor, await idOf(`Harbor story ${n}`), soon)).toMatchObject({
        ok: true,
      });
    }
    const extra = await handle.db
      .insert(articles)
      .values({
        id: "extra",
        category: "local-news",
        link: "https://sample.example.org/extra",
        title: "Extra",
        excerpt: "",
        content: "",
        author: "Staff",
        publishedAt: new Date(),
      })
      .returning();
    expect(extra).toHaveLength(1);
    expect(await pin(services, editor, "extra", soon)).toEqual({
      ok: false,
      error: "At most 5 stories can be pinned: unpin one first.",
    });
    expect(await pin(services, editor, "extra", new Date(Date.now() - 1000))).toMatchObject({
      ok: false,
    });

    // An expired pin no longer leads; a story taken down leaves the lists.
    await handle.db
      .update(storyPins)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(storyPins.articleId, next));
    await takeDown(services, editor, oldest, "Wrong photo");
    home = await homeLists(handle.db);
    expect(titles(home.headlines)[0]).toBe("Harbor story 2");
    expect(titles(home.headlines)).not.toContain("Harbor story 0");
    expect(await unpin(services, editor, await idOf("Harbor story 2"))).toMatchObject({ ok: true });
    expect(titles((await homeLists(handle.db)).headlines)[0]).toBe("Harbor story 3");
  });

  it("keeps items that rules match out at ingest, and takes stored ones down on request", async () => {
    await ingest();
    const [feed] = await handle.db.select().from(feeds);
    if (!feed) throw new Error("feed missing");
    expect(
      await addBlockRule(services, editor, { feedId: feed.id, field: "title", pattern: "casino*" }),
    ).toMatchObject({ ok: true });
    expect(
      await addBlockRule(services, editor, {
        feedId: null,
        field: "any",
        pattern: "harbor story 1",
      }),
    ).toMatchObject({ ok: true });
    expect(
      await addBlockRule(services, editor, { feedId: null, field: "title", pattern: "*" }),
    ).toMatchObject({ ok: false });
    body = rssFeed("Local", [...ITEMS, { guid: "casino", title: "Casinos to open on the bay" }]);
    await ingest();
    expect(await isTakenDown(handle.db, "casino")).toBe(false);
    expect(
      (await listStories(handle.db, { query: "casino", category: null, status: "all", page: 1 }))
        .total,
    ).toBe(0);

    // Stored before the rule, "Harbor story 1" stays until the rule is applied.
    const id = await idOf("Harbor story 1");
    expect(await articleById(handle.db, id)).toBeDefined();
    const [rule] = await handle.db
      .select()
      .from(blockRules)
      .where(eq(blockRules.pattern, "harbor story 1"));
    expect(await applyBlockRule(services, editor, rule?.id ?? 0)).toEqual({
      ok: true,
      message: "1 story is down.",
    });
    expect(await storyDetail(handle.db, id)).toMatchObject({
      takenDown: { reason: `Block rule #${rule?.id} (headline, author or link: "harbor story 1")` },
    });
    const down = await listStories(handle.db, {
      query: "",
      category: null,
      status: "down",
      page: 1,
    });
    expect(down.stories.map((s) => s.id)).toEqual([id]);
  });
});
