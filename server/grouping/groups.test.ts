import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rowsOf } from "../db/client";
import {
  articles,
  blockRules,
  feeds,
  staffAudit,
  storyGroupOverrides,
  storyGroups,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import type { FeedSource } from "../ingest/feeds-config";
import { runIngestPass } from "../ingest/ingest";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { latestArticles, otherVersions, relatedArticles } from "../news/repository";
import { homeLists } from "../news/home-lists";
import { archiveArticles } from "../news/archive";
import { searchSite } from "../news/search";
import { archiveCountsAndRows } from "../test-support/archive-counts";
import type { NewsroomServices } from "../newsroom/action";
import { addBlockRule, applyBlockRule } from "../newsroom/block-rule-actions";
import { takeDown } from "../newsroom/stories";
import { chooseLead, groupVersions, joinStories, splitStory } from "../newsroom/story-groups";
import { GROUPS_LOCK_CLASS, groupNewArticles, lockGroups, SEEN_WINDOW_HOURS } from "./store";

reportSkippedPostgres();

const logger = pino({ level: process.env.GROUPS_LOG ?? "silent" });
const editor = { id: 1, email: "editor@example.org" };
const HOUR = 3_600_000;
const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toUTCString();

/** One event told by three outlets, and stories of nothing in common. */
const WIRE = [
  {
    guid: "wire-fire",
    title: "Wildfire near Julian forces 2,400 residents to evacuate as Santa Ana winds build",
    description:
      "Cal Fire said the blaze near Julian in San Diego County had burned 3,100 acres by Tuesday morning, with 2,400 residents ordered out.",
    link: "https://www.wire.example/us/julian-fire",
    date: at(5),
  },
  {
    guid: "wire-fed",
    title: "Federal Reserve holds interest rates steady, signals patience",
    description: "The central bank left its benchmark rate unchanged on Tuesday.",
    link: "https://www.wire.example/business/fed",
    date: at(4),
  },
];
const LOCAL = [
  {
    guid: "local-fire",
    title: "Julian wildfire: 2,400 told to evacuate as Santa Ana winds fan the flames",
    description:
      "A fast-moving wildfire near Julian has burned 3,100 acres, Cal Fire said Tuesday, and evacuation orders cover 2,400 residents.",
    link: "https://localpaper.example/news/julian-wildfire",
    date: at(3),
  },
  {
    guid: "local-padres",
    title: "Padres sign veteran reliever to one-year deal",
    description: "The Padres added bullpen depth on Tuesday.",
    link: "https://localpaper.example/sports/padres",
    date: at(2),
  },
];
const METRO = [
  {
    guid: "metro-fire",
    title: "Julian fire grows to 3,100 acres; 2,400 residents under evacuation orders",
    description:
      "Evacuation orders for 2,400 Julian residents stayed in place Tuesday as the wildfire grew to 3,100 acres, Cal Fire said.",
    link: "https://metro.example/julian-fire-grows",
    date: at(1),
  },
];

describe.each(testDatabases())("story groups on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  let services: NewsroomServices;
  const bodies = new Map<string, string>();

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = { db: handle.db, announceChange: () => handle.announceChange() };
    server = await startFixtureServer();
    for (const name of ["wire", "local", "metro"]) {
      server.route(`/${name}.xml`, (_req, res) => {
        res.writeHead(200, { "content-type": "application/rss+xml" }).end(bodies.get(name) ?? "");
      });
    }
  });
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    await handle.db.delete(storyGroupOverrides);
    await handle.db.delete(articles);
    await handle.db.delete(storyGroups);
    await handle.db.delete(feeds);
    await handle.db.delete(staffAudit);
    await handle.db.delete(blockRules);
    bodies.set("wire", rssFeed("Wire", WIRE));
    bodies.set("local", rssFeed("Local", LOCAL));
    bodies.set("metro", rssFeed("Metro", []));
  });

  const sources: FeedSource[] = [];
  const feedsOf = (): FeedSource[] =>
    sources.length > 0
      ? sources
      : sources.concat([
          { url: server.url("/wire.xml"), category: "national-news" },
          { url: server.url("/local.xml"), category: "local-news" },
          { url: server.url("/metro.xml"), category: "local-news" },
        ]);
  const ingest = () =>
    runIngestPass(feedsOf(), {
      database: handle,
      logger,
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
      force: true,
    });
  const story = async (guid: string) => {
    const [row] = await handle.db.select().from(articles).where(eq(articles.guid, guid));
    if (!row) throw new Error(`no story ${guid}`);
    return row;
  };
  const titles = (list: { title: string }[]) => list.map((a) => a.title);
  /** archive_counts says what counting the rows that lists show says. */
  const countsHold = async () => {
    const { kept, counted } = await archiveCountsAndRows(handle.db);
    expect(kept).toEqual(counted);
  };

  it("groups one event from two feeds at ingest: one card per list, every version on the page", async () => {
    await ingest();
    const wire = await story("wire-fire");
    const local = await story("local-fire");
    expect(wire.storyGroup).not.toBeNull();
    expect(local.storyGroup).toBe(wire.storyGroup);
    // The earlier version leads; in Local News the local version is the first of the group.
    expect([wire.groupLead, wire.categoryLead]).toEqual([true, true]);
    expect([local.groupLead, local.categoryLead]).toEqual([false, true]);
    expect(wire.alsoCoveredBy).toEqual(["localpaper.example"]);
    expect(local.alsoCoveredBy).toEqual(["wire.example"]);
    // Nothing else is grouped.
    expect((await story("wire-fed")).storyGroup).toBeNull();
    expect((await story("local-padres")).storyGroup).toBeNull();

    const every = await latestArticles(handle.db, { limit: 10 });
    expect(titles(every)).toEqual([
      "Padres sign veteran reliever to one-year deal",
      "Federal Reserve holds interest rates steady, signals patience",
      WIRE[0]?.title,
    ]);
    expect(every[2]?.alsoCoveredBy).toEqual(["localpaper.example"]);
    const localNews = await latestArticles(handle.db, { category: "local-news", limit: 10 });
    expect(titles(localNews)).toEqual([LOCAL[1]?.title, LOCAL[0]?.title]);
    expect(localNews[1]?.alsoCoveredBy).toEqual(["wire.example"]);

    const { headlines } = await homeLists(handle.db);
    expect(titles(headlines).filter((t) => t.includes("Julian"))).toEqual([WIRE[0]?.title]);
    const year = new Date().getFullYear();
    const archive = await archiveArticles(handle.db, { year, limit: 30, offset: 0 });
    expect(archive.total).toBe(3);
    expect(titles(archive.articles)).not.toContain(LOCAL[0]?.title);
    await countsHold();

    const found = await searchSite(handle.db, "Julian wildfire", { page: 1 });
    expect(found.total).toBe(1);
    expect(found.hits).toHaveLength(1);
    // The lead stands for its group when it matches, though another version matches better.
    expect(found.hits[0]).toMatchObject({
      kind: "article",
      id: wire.id,
      alsoCoveredBy: ["localpaper.example"],
    });
    // A query only another version matches finds that version.
    const flames = await searchSite(handle.db, "fan the flames", { page: 1 });
    expect(flames.hits).toMatchObject([{ kind: "article", id: local.id }]);

    const versions = await otherVersions(handle.db, wire.storyGroup ?? "", wire.id);
    expect(versions).toEqual([
      {
        id: local.id,
        title: LOCAL[0]?.title,
        source: "localpaper.example",
        date: expect.any(String),
      },
    ]);
    // Related stories never repeat another version of the story.
    const lead = every[2];
    if (!lead) throw new Error("no lead card");
    const related = await relatedArticles(handle.db, { ...lead, category: "local-news" });
    expect(titles(related)).not.toContain(LOCAL[0]?.title);
  });

  it("adds a third outlet's version to the group in a later pass", async () => {
    await ingest();
    bodies.set("metro", rssFeed("Metro", METRO));
    await ingest();
    const [wire, local, metro] = await Promise.all(
      ["wire-fire", "local-fire", "metro-fire"].map(story),
    );
    expect(metro?.storyGroup).toBe(wire?.storyGroup);
    expect(local?.storyGroup).toBe(wire?.storyGroup);
    expect(wire?.alsoCoveredBy).toEqual(["localpaper.example", "metro.example"]);
    // Local News: the local paper's version is its first; Metro's is folded under it.
    expect(metro?.categoryLead).toBe(false);
    await countsHold();
  });

  it("compares with a story as it reads now, after its feed edited it", async () => {
    const DESK = "From the wire desk.";
    const [fire] = WIRE;
    if (!fire) throw new Error("no wire fire story");
    // The wire's first headline says nothing of the fire; its edit, read in a later pass, does.
    bodies.set(
      "wire",
      rssFeed("Wire", [{ ...fire, title: "Developing story", description: DESK }]),
    );
    bodies.set("local", rssFeed("Local", []));
    await ingest();
    bodies.set("wire", rssFeed("Wire", [{ ...fire, description: DESK }]));
    await ingest();
    bodies.set("local", rssFeed("Local", LOCAL));
    await ingest();
    expect((await story("local-fire")).storyGroup).not.toBeNull();
    expect((await story("local-fire")).storyGroup).toBe((await story("wire-fire")).storyGroup);
  });

  it("matches a new story among what came lately, not the archive of the years it is dated", async () => {
    // The wire's report has been on the site for weeks; a feed brings the same story now.
    bodies.set("local", rssFeed("Local", []));
    await ingest();
    await handle.db
      .update(articles)
      .set({ firstSeenAt: new Date(Date.now() - (SEEN_WINDOW_HOURS + 1) * HOUR) })
      .where(eq(articles.guid, "wire-fire"));
    bodies.set("local", rssFeed("Local", LOCAL));
    await ingest();
    expect((await story("local-fire")).storyGroup).toBeNull();
    expect((await story("wire-fire")).storyGroup).toBeNull();
    // Within the window it is grouped as before.
    bodies.set("metro", rssFeed("Metro", METRO));
    await ingest();
    expect((await story("metro-fire")).storyGroup).toBe((await story("local-fire")).storyGroup);
    expect((await story("metro-fire")).storyGroup).not.toBeNull();
    await countsHold();
  });

  it("lets staff split, join and choose the lead, and no ingest pass undoes it; the audit log says so", async () => {
    await ingest();
    const wire = await story("wire-fire");
    const local = await story("local-fire");

    expect(await splitStory(services, editor, local.id)).toMatchObject({ ok: true });
    expect((await story("local-fire")).storyGroup).toBeNull();
    // The group of two is gone: the wire story stands alone again.
    expect(await story("wire-fire")).toMatchObject({ storyGroup: null, alsoCoveredBy: null });
    expect(await handle.db.select().from(storyGroups)).toEqual([]);
    await countsHold();

    // Read again, and with a third outlet matching both: the split version stays alone.
    bodies.set("metro", rssFeed("Metro", METRO));
    await ingest();
    expect((await story("local-fire")).storyGroup).toBeNull();
    expect((await story("metro-fire")).storyGroup).toBe((await story("wire-fire")).storyGroup);

    // Joined back by hand, and made the lead.
    expect(await joinStories(services, editor, local.id, `/article/${wire.id}`)).toMatchObject({
      ok: true,
    });
    expect(await chooseLead(services, editor, local.id)).toMatchObject({ ok: true });
    await ingest();
    const versions = await groupVersions(handle.db, wire.id);
    expect(versions.map((v) => [v.id, v.lead])).toEqual([
      [local.id, true],
      [wire.id, false],
      [(await story("metro-fire")).id, false],
    ]);
    expect(titles(await latestArticles(handle.db, { limit: 10 }))).toContain(LOCAL[0]?.title);
    await countsHold();

    const actions = (await handle.db.select().from(staffAudit).orderBy(staffAudit.id)).map((e) => [
      e.action,
      e.subject,
    ]);
    expect(actions).toEqual([
      ["story.group-split", local.id],
      ["story.group-join", local.id],
      ["story.group-lead", local.id],
    ]);
  });

  it("refuses what cannot be: no such story, the same story, a story that is alone", async () => {
    await ingest();
    const fed = await story("wire-fed");
    expect(await splitStory(services, editor, fed.id)).toEqual({
      ok: false,
      error: "The story is not in a group.",
    });
    expect(await joinStories(services, editor, fed.id, "no-such-story")).toEqual({
      ok: false,
      error: "There is no story on the site with that id or address.",
    });
    expect(await joinStories(services, editor, fed.id, fed.id)).toEqual({
      ok: false,
      error: "That is this story.",
    });
    expect(await chooseLead(services, editor, "\u0000")).toEqual({
      ok: false,
      error: "There is no story with that id.",
    });
    expect(await handle.db.select().from(staffAudit)).toEqual([]);
  });

  it("takes a version taken down out of its group, and the rest shows without it", async () => {
    await ingest();
    bodies.set("metro", rssFeed("Metro", METRO));
    await ingest();
    const wire = await story("wire-fire");
    expect(await takeDown(services, editor, wire.id, "Wrong county")).toMatchObject({ ok: true });
    const [local, metro] = await Promise.all(["local-fire", "metro-fire"].map(story));
    expect((await story("wire-fire")).storyGroup).toBeNull();
    expect(metro?.storyGroup).toBe(local?.storyGroup);
    // The earliest left leads now, and names only the outlet still carrying it.
    expect(local).toMatchObject({ groupLead: true, alsoCoveredBy: ["metro.example"] });
    expect(titles(await latestArticles(handle.db, { limit: 10 }))).toContain(LOCAL[0]?.title);
    await countsHold();
  });

  // PGlite has one connection and runs one transaction at a time: nothing can come between a read
  // and a write there. On PostgreSQL the groups' lock makes it so.
  it.runIf(database.name === "postgres")(
    "changes groups one at a time: ingest's grouping and each staff action wait for the groups' lock",
    async () => {
      await ingest();
      const wire = await story("wire-fire");
      const local = await story("local-fire");
      const fed = await story("wire-fed");
      /** Whether another session waits for the groups' lock now (two keys: objsubid 2). */
      const someoneWaits = async () => {
        const found = await handle.db.execute(sql`
          SELECT count(*) AS n FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted AND objsubid = 2
             AND classid = ${GROUPS_LOCK_CLASS}
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
        return Number(rowsOf<{ n: string | number }>(found)[0]?.n ?? 0) > 0;
      };
      /** Runs `change` while another transaction holds the lock: whether it waited for it. */
      const waitsForTheLock = async (change: () => Promise<unknown>) => {
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        let taken = () => {};
        const held = new Promise<void>((resolve) => (taken = resolve));
        const holder = handle.db.transaction(async (tx) => {
          await lockGroups(tx);
          taken();
          await released;
        });
        await held;
        let done = false;
        const changing = change().finally(() => (done = true));
        await expect.poll(async () => done || (await someoneWaits())).toBe(true);
        const waited = !done;
        release();
        await holder;
        await changing;
        return waited;
      };
      expect(
        await waitsForTheLock(() =>
          handle.db.transaction((tx) => groupNewArticles(tx, [wire.id, local.id])),
        ),
      ).toBe(true);
      expect(await waitsForTheLock(() => splitStory(services, editor, local.id))).toBe(true);
      expect(await waitsForTheLock(() => joinStories(services, editor, local.id, wire.id))).toBe(
        true,
      );
      expect(await waitsForTheLock(() => chooseLead(services, editor, local.id))).toBe(true);
      expect(await waitsForTheLock(() => takeDown(services, editor, fed.id, "A test"))).toBe(true);
      await addBlockRule(services, editor, { feedId: null, field: "title", pattern: "padres*" });
      const [rule] = await handle.db
        .execute(sql`SELECT id FROM block_rules`)
        .then((r) => rowsOf<{ id: number }>(r));
      expect(await waitsForTheLock(() => applyBlockRule(services, editor, Number(rule?.id)))).toBe(
        true,
      );
      // Each did what it does, once the lock was free.
      expect((await story("local-fire")).groupLead).toBe(true);
      expect((await story("wire-fed")).takenDownAt).not.toBeNull();
      expect((await story("local-padres")).takenDownAt).not.toBeNull();
      await countsHold();
    },
  );

  it("forms hundreds of groups in one pass, each of its own versions", async () => {
    // Two outlets carrying the same 520 stories, each headline its own (three words no other has):
    // 1,040 versions joined in one pass, more than one statement's worth of rows.
    const [a, b] = await handle.db
      .insert(feeds)
      .values([
        { url: "https://wire.example/many.xml", category: "national-news" },
        { url: "https://localpaper.example/many.xml", category: "local-news" },
      ])
      .returning({ id: feeds.id });
    const inserted = await handle.db.execute(sql`
      INSERT INTO articles (id, feed_id, category, guid, link, title, excerpt, content, author,
                            published_at)
      SELECT f.prefix || n, f.id, f.category, f.prefix || n, 'https://sample.example.org/' || f.prefix || n,
             md5('a' || n) || ' ' || md5('b' || n) || ' ' || md5('c' || n), '', '', 'Staff Writer',
             now() - make_interval(mins => n)
        FROM generate_series(1, 520) AS n,
             (VALUES (${a?.id}::int, 'national-news', 'w'), (${b?.id}::int, 'local-news', 'l'))
               AS f(id, category, prefix)
      RETURNING id`);
    const ids = rowsOf<{ id: string }>(inserted).map((row) => row.id);
    expect(ids).toHaveLength(1040);

    const changed = await handle.db.transaction((tx) => groupNewArticles(tx, ids));
    expect(changed).toHaveLength(1040);
    const [counts] = rowsOf<{ groups: number; grouped: number; pairs: number; leads: number }>(
      await handle.db.execute(sql`
        SELECT (SELECT count(*)::int FROM story_groups) AS groups,
               (SELECT count(*)::int FROM articles WHERE story_group IS NOT NULL) AS grouped,
               (SELECT count(*)::int FROM articles w JOIN articles l
                   ON l.id = 'l' || substr(w.id, 2) AND l.story_group = w.story_group
                 WHERE w.id LIKE 'w%') AS pairs,
               (SELECT count(*)::int FROM articles WHERE story_group IS NOT NULL AND group_lead)
                 AS leads`),
    );
    expect(counts).toEqual({ groups: 520, grouped: 1040, pairs: 520, leads: 520 });
  });
});
