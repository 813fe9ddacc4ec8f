import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import {
  articles,
  blogPosts,
  breakingBanner,
  corrections,
  feeds,
  newsroomPosts,
  staff,
  staffAudit,
  storyPins,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { runIngestPass } from "../ingest/ingest";
import { rssFeed, startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { setBanner } from "../newsroom/banner";
import { addCorrection } from "../newsroom/corrections";
import { createPost, publishPost, saveDraft, unpublishPost } from "../newsroom/posts";
import { pin } from "../newsroom/pins";
import { restore, setHeadline, takeDown } from "../newsroom/stories";
import { withPurger } from "./changes";
import type { Purger } from "./purge";

/**
 * Every change purges exactly the keys of the pages it touched, through the one place changes are
 * announced (`withPurger`): the newsroom's actions and an ingest pass, each through its real code
 * over a real database.
 */

reportSkippedPostgres();

const logger = pino({ level: "silent" });
const SITE = "https://news.example.org";
const LISTS = ["home", "archives", "search", "feeds", "sitemaps"];
/** The feed items' date: one moment, so an item sent again is the same item. */
const DATE = new Date(Date.now() - 3_600_000).toUTCString();

const ownStory: PostFields = {
  ...EMPTY_POST_FIELDS,
  title: "Harbor board votes on the budget",
  dek: "The vote comes after a month of hearings.",
  description: "The harbor board's budget vote.",
  bodyHtml: "<p>The board met on Tuesday.</p>",
  category: "politics",
  bylines: ["Ana Ruiz"],
};

describe.each(testDatabases())("what each change purges on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let server: FixtureServer;
  let body = "";
  let purged: string[][] = [];
  let services: ReturnType<typeof servicesFor>;
  let editor: { id: number; email: string };

  const recording: Purger = {
    purge: (keys) => void purged.push([...keys]),
    idle: () => Promise.resolve(),
  };
  const servicesFor = (announcing: ReturnType<typeof withPurger>) => ({
    db: announcing.db,
    announceChange: (keys?: readonly string[]) => announcing.announceChange(keys),
    siteUrl: SITE,
  });

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = servicesFor(withPurger(handle, recording));
    server = await startFixtureServer();
    server.route("/sports.xml", (_req, res) => {
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(body);
    });
  });
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    for (const table of [storyPins, corrections, newsroomPosts, blogPosts, breakingBanner]) {
      await handle.db.delete(table);
    }
    await handle.db.delete(articles);
    await handle.db.delete(feeds);
    await handle.db.delete(staffAudit);
    await handle.db.delete(staff);
    const [row] = await handle.db
      .insert(staff)
      .values({ email: "editor@example.org", role: "editor", passwordHash: "x" })
      .returning();
    if (!row) throw new Error("no staff row");
    editor = { id: row.id, email: row.email };
    body = rssFeed("Sports", [
      { guid: "a", title: "Padres sign a catcher", date: DATE },
      { guid: "b", title: "Wave win the final", date: DATE },
    ]);
    purged = [];
  });

  const ingest = () =>
    runIngestPass([{ url: server.url("/sports.xml"), category: "sports" }], {
      database: withPurger(handle, recording),
      logger,
      siteUrl: SITE,
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
  const sorted = (keys: string[] | undefined) => [...(keys ?? [])].sort();

  it("new stories from a feed purge the lists of their category, not a story's page", async () => {
    await ingest();
    expect(purged).toHaveLength(1);
    expect(sorted(purged[0])).toEqual(sorted([...LISTS, "category-sports"]));
  });

  it("a story a feed changed purges its page too; an unchanged feed purges nothing", async () => {
    await ingest();
    await ingest();
    expect(purged).toHaveLength(1);
    body = rssFeed("Sports", [
      { guid: "a", title: "Padres sign a new catcher", date: DATE },
      { guid: "b", title: "Wave win the final", date: DATE },
    ]);
    await ingest();
    const id = await idOf("Padres sign a new catcher");
    expect(sorted(purged[1])).toEqual(sorted([...LISTS, "category-sports", `article-${id}`]));
  });

  it("take-down, restore and a headline purge the story's page and every list it is on", async () => {
    await ingest();
    const id = await idOf("Padres sign a catcher");
    purged = [];
    const expected = sorted([...LISTS, "category-sports", `article-${id}`]);
    expect(await takeDown(services, editor, id, "Wrong team")).toMatchObject({ ok: true });
    expect(await restore(services, editor, id)).toMatchObject({ ok: true });
    expect(await setHeadline(services, editor, id, "Padres sign Ruiz")).toMatchObject({
      ok: true,
    });
    expect(purged.map(sorted)).toEqual([expected, expected, expected]);
    // A refused action changed nothing and purges nothing.
    expect(await restore(services, editor, id)).toMatchObject({ ok: false });
    expect(purged).toHaveLength(3);
  });

  it("a correction purges its story and the corrections; a pin and the banner, the home page", async () => {
    await ingest();
    const id = await idOf("Wave win the final");
    purged = [];
    await addCorrection(services, editor, id, "The final was on Sunday, not Saturday.");
    await pin(services, editor, id, new Date(Date.now() + 86_400_000));
    await setBanner(services, editor, {
      text: "Polls close at 8",
      link: "",
      expiresAt: new Date(Date.now() + 3 * 3600_000),
    });
    expect(purged).toEqual([[`article-${id}`, "corrections"], ["home"], ["home"]]);
  });

  it("publishing an own story purges home, its category, feeds and sitemaps; unpublishing too", async () => {
    const id = await createPost(services, editor, "story");
    await saveDraft(services, editor, id, { fields: ownStory, slug: "" });
    purged = [];
    expect(await publishPost(services, editor, id, null)).toMatchObject({ ok: true });
    const [row] = await handle.db.select({ id: articles.id }).from(articles);
    const expected = sorted([...LISTS, "category-politics", `article-${row?.id}`]);
    expect(sorted(purged[0])).toEqual(expected);

    // Moved to another section: both sections' lists.
    await saveDraft(services, editor, id, {
      fields: { ...ownStory, category: "sports" },
      slug: "",
    });
    await publishPost(services, editor, id, null);
    expect(sorted(purged[1])).toEqual(sorted([...expected, "category-sports"]));

    await unpublishPost(services, editor, id);
    expect(sorted(purged[2])).toEqual(sorted([...LISTS, "category-sports", `article-${row?.id}`]));
  });

  it("publishing and unpublishing a blog post purge its page, the blog, sitemaps and search", async () => {
    const id = await createPost(services, editor, "blog");
    await saveDraft(services, editor, id, { fields: ownStory, slug: "budget-vote" });
    purged = [];
    const published = await publishPost(services, editor, id, null);
    expect(published).toMatchObject({ ok: true });
    const expected = ["blog", "blog-post-budget-vote", "search", "sitemaps"];
    expect(sorted(purged[0])).toEqual(expected);
    await unpublishPost(services, editor, id);
    expect(sorted(purged[1])).toEqual(expected);
    // Saving a draft changes nothing readers see.
    await saveDraft(services, editor, id, { fields: ownStory, slug: "budget-vote" });
    expect(purged).toHaveLength(2);
  });
});
