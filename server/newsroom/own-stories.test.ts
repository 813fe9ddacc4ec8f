import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import {
  articles,
  blockRules,
  corrections,
  feeds,
  newsroomMedia,
  newsroomPosts,
  staff,
  staffAudit,
  storyPins,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { runIngestPass } from "../ingest/ingest";
import { resanitizeArticles } from "../ingest/resanitize";
import { SANITIZE_POLICY_VERSION } from "../ingest/sanitize";
import { storeArticles } from "../ingest/store";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { articleById, correctionsOf, isTakenDown } from "../news/repository";
import { homeLists } from "../news/home-lists";
import type { Actor, NewsroomServices } from "./action";
import { addCorrection, retractCorrection } from "./corrections";
import { sanitizeBody } from "./post-body";
import { postById } from "./post-reads";
import { createPost, publishPost, saveDraft, unpublishPost } from "./posts";
import { addBlockRule, applyBlockRule } from "./block-rule-actions";
import { pin, unpin } from "./pins";
import { restore, setHeadline, setPictureChoice, takeDown } from "./stories";

/**
 * What else acts on a story the newsroom published: editors' take-down, restore, corrections and
 * pins work on it as on a feed story (and restore will not undo its writers' unpublishing), while
 * ingest and the sanitiser's second pass never change it.
 */

reportSkippedPostgres();

const SITE = "https://news.example.org";
const UPLOAD = "e".repeat(64);
const logger = pino({ level: "silent" });

const story: PostFields = {
  ...EMPTY_POST_FIELDS,
  title: "Harbor pilots train for the new cranes",
  dek: "Six weeks of night drills.",
  bodyHtml: sanitizeBody(
    `<p>Drills.</p><p><img src="${SITE}/images/${UPLOAD}/1200.jpg" alt="A crane"></p>`,
    "html",
    SITE,
  ),
  category: "local-news",
  bylines: ["Ana Ruiz"],
};

describe.each(testDatabases())("the newsroom's own stories on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let services: NewsroomServices & { siteUrl: string };
  let editor: Actor;
  let server: FixtureServer;
  let feedBody = "";

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = { db: handle.db, announceChange: () => handle.announceChange(), siteUrl: SITE };
    server = await startFixtureServer();
    server.route("/local.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(feedBody);
    });
  });
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    await handle.db.delete(storyPins);
    await handle.db.delete(blockRules);
    await handle.db.delete(corrections);
    await handle.db.delete(newsroomPosts);
    await handle.db.delete(newsroomMedia);
    await handle.db.delete(articles);
    await handle.db.delete(feeds);
    await handle.db.delete(staffAudit);
    await handle.db.delete(staff);
    const [row] = await handle.db
      .insert(staff)
      .values({ email: "writer@example.org", role: "editor", passwordHash: "x" })
      .returning();
    if (!row) throw new Error("no staff row");
    editor = { id: row.id, email: row.email };
  });

  /** Publishes the story; answers its post's id and its article's. */
  const published = async () => {
    const post = await createPost(services, editor, "story");
    await saveDraft(services, editor, post, { fields: story, slug: "" });
    expect(await publishPost(services, editor, post, null)).toMatchObject({ ok: true });
    return { post, id: (await postById(handle.db, post))?.articleId ?? "" };
  };
  const row = async (id: string) =>
    (await handle.db.select().from(articles).where(eq(articles.id, id)))[0];
  const onHome = async (id: string) =>
    (await homeLists(handle.db)).headlines.some((a) => a.id === id);

  it("comes down, and back, as a feed story does", async () => {
    const { id } = await published();
    expect(await takeDown(services, editor, id, "Legal request")).toMatchObject({ ok: true });
    expect(await articleById(handle.db, id)).toBeUndefined();
    expect(await isTakenDown(handle.db, id)).toBe(true);
    expect(await onHome(id)).toBe(false);

    expect(await restore(services, editor, id)).toEqual({
      ok: true,
      message: "The story is back on the site.",
    });
    expect((await articleById(handle.db, id))?.own).toBe(true);
    expect(await onHome(id)).toBe(true);
  });

  it("is not restored when its writers unpublished it: that is the editor page's to undo", async () => {
    const { post, id } = await published();
    expect(await unpublishPost(services, editor, post)).toMatchObject({ ok: true });
    expect(await restore(services, editor, id)).toEqual({
      ok: false,
      error: "Publish it again from its editor page.",
    });
    expect(await isTakenDown(handle.db, id)).toBe(true);
    expect(await publishPost(services, editor, post, null)).toMatchObject({ ok: true });
    expect(await isTakenDown(handle.db, id)).toBe(false);
  });

  it("is never taken down by a block rule: rules are about what feeds send", async () => {
    const { id } = await published();
    expect(
      await addBlockRule(services, editor, {
        feedId: null,
        field: "title",
        pattern: "harbor pilots*",
      }),
    ).toMatchObject({ ok: true });
    const [rule] = await handle.db.select().from(blockRules);
    expect(await applyBlockRule(services, editor, rule?.id ?? 0)).toEqual({
      ok: false,
      error: "No story on the site matches the rule.",
    });
    expect(await isTakenDown(handle.db, id)).toBe(false);
    expect(await onHome(id)).toBe(true);
  });

  it("takes corrections, which its page lists, and retractions", async () => {
    const { id } = await published();
    const text = "An earlier version misspelled a pilot's name.";
    expect(await addCorrection(services, editor, id, text)).toMatchObject({ ok: true });
    const [correction] = await correctionsOf(handle.db, id);
    if (!correction) throw new Error("no correction");
    expect(correction.text).toBe(text);
    expect(await retractCorrection(services, editor, id, correction.id)).toMatchObject({
      ok: true,
    });
    expect(await correctionsOf(handle.db, id)).toEqual([]);
  });

  it("is pinned to the top of the home page, and unpinned", async () => {
    const { id } = await published();
    await handle.db.insert(articles).values({
      id: "newer-feed-story",
      category: "local-news",
      link: "https://sample.example.org/newer",
      title: "Newer",
      excerpt: "Newer.",
      content: "<p>Newer.</p>",
      author: "Feed Writer",
      publishedAt: new Date(Date.now() + 60_000),
    });
    expect((await homeLists(handle.db)).headlines[0]?.id).toBe("newer-feed-story");
    expect(await pin(services, editor, id, new Date(Date.now() + 3600_000))).toMatchObject({
      ok: true,
    });
    const { headlines, featured } = await homeLists(handle.db);
    expect(headlines[0]).toMatchObject({ id, own: true });
    expect(featured[0]?.id).toBe(id);
    expect(await unpin(services, editor, id)).toMatchObject({ ok: true });
    expect((await homeLists(handle.db)).headlines[0]?.id).toBe("newer-feed-story");
  });

  it("keeps its headline and picture its editor's", async () => {
    const { id } = await published();
    const before = await row(id);
    expect(await setHeadline(services, editor, id, "Another headline")).toMatchObject({
      ok: false,
    });
    expect(await setPictureChoice(services, editor, id, "default")).toMatchObject({ ok: false });
    expect(await row(id)).toEqual(before);
  });

  it("is never changed by a feed item with its link", async () => {
    const { id } = await published();
    const before = await row(id);
    feedBody = rssFeed("Local", [
      { guid: "copy", title: "A copy of our story", link: `${SITE}/article/${id}` },
      { guid: "other", title: "Another story", link: "https://sample.example.org/other" },
    ]);
    const ingest = () =>
      runIngestPass([{ url: server.url("/local.xml"), category: "local-news" }], {
        database: handle,
        logger,
        siteUrl: SITE,
        siteName: "Test Ledger",
        force: true,
      });
    await ingest();
    await ingest();
    expect(await row(id)).toEqual(before);
    const titles = (await handle.db.select({ title: articles.title }).from(articles)).map(
      (a) => a.title,
    );
    expect(titles.sort()).toEqual(["Another story", story.title]);
  });

  it("is never changed by a feed item with its id", async () => {
    const { id } = await published();
    const before = await row(id);
    const [feed] = await handle.db
      .insert(feeds)
      .values({ url: "https://sample.example.org/feed.xml", category: "local-news" })
      .returning();
    if (!feed) throw new Error("no feed");
    const result = await storeArticles(
      handle.db,
      feed.id,
      [
        {
          id,
          guid: "same-id",
          title: "Not ours",
          excerpt: "Not ours.",
          content: "<p>Not ours.</p>",
          image: null,
          category: "local-news",
          date: new Date(),
          author: "Feed Writer",
          link: "https://sample.example.org/not-ours",
        },
      ],
      new Date(),
    );
    expect(result).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 0,
      duplicates: 1,
      purgeKeys: [],
      insertedIds: [],
    });
    expect(await row(id)).toEqual(before);
  });

  it("is left alone by the sanitiser's second pass", async () => {
    const { id } = await published();
    await handle.db.update(articles).set({ sanitizePolicy: 0 }).where(eq(articles.id, id));
    const before = await row(id);
    expect(before?.content).toContain(`src="/images/${UPLOAD}/1200.jpg"`);
    expect(await resanitizeArticles(handle)).toEqual({ checked: 0, rewritten: 0 });
    expect(await row(id)).toEqual(before);
    expect(before?.sanitizePolicy).not.toBe(SANITIZE_POLICY_VERSION);
  });
});
