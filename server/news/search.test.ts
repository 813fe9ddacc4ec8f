import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncBlogIndex } from "../blog/search-index";
import { BLOG_PAGE_SIZE, type BlogPostSummary, type BlogSource } from "../blog/source";
import { articles, blogPosts, pictures } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { upsertArticle, type NewArticle } from "./repository";
import { searchSite, splitHeadline, type SearchPage } from "./search";
import { refreshSearchWindows, searchWindowsOf } from "./search-window";

reportSkippedPostgres();

function article(id: string, fields: Partial<NewArticle>): NewArticle {
  return {
    id,
    category: "local-news",
    link: `https://sample.example.org/${id}`,
    title: `Story ${id}`,
    excerpt: "Nothing to see.",
    content: "<p>Body</p>",
    image: null,
    author: "Staff Writer",
    publishedAt: new Date("2026-06-01T12:00:00Z"),
    ...fields,
  };
}

/** A blog that lists the given posts page by page, as a source does. */
function blogOf(posts: BlogPostSummary[]): BlogSource {
  return {
    list: async (page) => ({
      posts: posts.slice((page - 1) * BLOG_PAGE_SIZE, page * BLOG_PAGE_SIZE),
      total: posts.length,
    }),
    get: async () => null,
  };
}

const post = (
  slug: string,
  title: string,
  description: string,
  image: string | null = null,
): BlogPostSummary => ({ slug, title, description, image, date: "2026-03-01" });

const KEPT_PHOTO = "https://blog.example.org/photos/kelp.jpg";
const KEPT_PICTURE = {
  kind: "stored",
  hash: "b".repeat(64),
  width: 1200,
  height: 800,
  color: "#224466",
} as const;

describe("splitHeadline", () => {
  it.each([
    ["no match", [{ text: "no match", match: false }]],
    [
      "\u0001Harbor\u0002 opens",
      [
        { text: "Harbor", match: true },
        { text: " opens", match: false },
      ],
    ],
    [
      "the \u0001harbors\u0002 and \u0001harbor\u0002",
      [
        { text: "the ", match: false },
        { text: "harbors", match: true },
        { text: " and ", match: false },
        { text: "harbor", match: true },
      ],
    ],
    [
      "cut \u0001off",
      [
        { text: "cut ", match: false },
        { text: "off", match: true },
      ],
    ],
  ])("%j", (headline, runs) => {
    expect(splitHeadline(headline)).toEqual(runs);
  });
});

describe.each(testDatabases())("search on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.db.delete(articles);
    await handle.db.delete(blogPosts);
    await upsertArticle(
      handle.db,
      article("excerpt-match-new", {
        title: "Council approves budget",
        excerpt: "The harbor district gets new funding.",
        publishedAt: new Date("2026-11-01T12:00:00Z"),
      }),
    );
    await upsertArticle(
      handle.db,
      article("title-match-old", {
        title: "Harbor cleanup begins",
        excerpt: "Volunteers gather on Saturday.",
        publishedAt: new Date("2024-02-01T12:00:00Z"),
      }),
    );
    await upsertArticle(
      handle.db,
      article("title-match-new", {
        title: "Harbors brace for the storm",
        excerpt: "Boats are tied down along the waterfront.",
        publishedAt: new Date("2026-10-01T12:00:00Z"),
      }),
    );
    await upsertArticle(
      handle.db,
      article("hostile", {
        title: "Review: <script>alert(1)</script> harbor show",
        excerpt: "An <img src=x onerror=alert(1)> harbor review.",
      }),
    );
    for (let i = 0; i < 25; i++) {
      await upsertArticle(
        handle.db,
        article(`tide-${i}`, {
          title: `Tide report ${i}`,
          publishedAt: new Date(Date.UTC(2026, 0, 1 + i)),
        }),
      );
    }
    await syncBlogIndex(
      handle.db,
      blogOf([
        post("tide-pools", "Best tide pools", "Where to see sea stars at low tide."),
        post("council-guide", "How to speak at the city council", "Public comment, step by step."),
        post("kelp-kept", "Kelp forest walk", "Snorkel the kelp.", KEPT_PHOTO),
        post("kelp-local", "Kelp on the beach", "Why kelp washes up.", "/images/sample/beach.svg"),
        post("kelp-remote", "Kelp farming", "A kelp farm offshore.", "https://x.example/k.jpg"),
      ]),
    );
    await handle.db.insert(pictures).values([
      { url: KEPT_PHOTO, picture: KEPT_PICTURE, hash: KEPT_PICTURE.hash },
      { url: "https://x.example/k.jpg", lastError: "HTTP 404" },
    ]);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("ranks title matches above excerpt matches, then newest first, and matches word forms", async () => {
    const { hits, total } = await searchSite(handle.db, "harbor", { page: 1 });
    const keys = hits.map((h) => (h.kind === "article" ? h.id : h.slug));
    expect(total).toBe(4);
    expect(keys.indexOf("title-match-new")).toBeLessThan(keys.indexOf("title-match-old"));
    expect(keys.indexOf("title-match-old")).toBeLessThan(keys.indexOf("excerpt-match-new"));
    expect(keys).toContain("hostile");
  });

  it("marks the matched words in title and excerpt", async () => {
    const { hits } = await searchSite(handle.db, "harbor", { page: 1 });
    const hit = hits.find((h) => h.kind === "article" && h.id === "title-match-new");
    expect(hit?.title).toEqual([
      { text: "Harbors", match: true },
      { text: " brace for the storm", match: false },
    ]);
    const excerpt = hits.find((h) => h.kind === "article" && h.id === "excerpt-match-new")?.excerpt;
    expect(excerpt).toEqual([
      { text: "The ", match: false },
      { text: "harbor", match: true },
      { text: " district gets new funding.", match: false },
    ]);
  });

  it("keeps stored markup as text, for the page to escape", async () => {
    const { hits } = await searchSite(handle.db, "review", { page: 1 });
    const hostile = hits.find((h) => h.kind === "article" && h.id === "hostile");
    expect(hostile?.title.map((r) => r.text).join("")).toBe(
      "Review: <script>alert(1)</script> harbor show",
    );
  });

  it("finds blog posts beside articles", async () => {
    const { hits } = await searchSite(handle.db, "tide", { page: 1 });
    expect(hits[0]).toMatchObject({ kind: "blog", slug: "tide-pools" });
    const council = await searchSite(handle.db, "council", { page: 1 });
    expect(council.hits.map((h) => h.kind).sort()).toEqual(["article", "blog"]);
  });

  it("shows a blog post's kept copy or its site path, never another host's picture", async () => {
    const { hits } = await searchSite(handle.db, "kelp", { page: 1 });
    const pictureOf = (slug: string) =>
      hits.find((h) => h.kind === "blog" && h.slug === slug)?.picture;
    expect(hits).toHaveLength(3);
    expect(pictureOf("kelp-kept")).toEqual(KEPT_PICTURE);
    expect(pictureOf("kelp-local")).toEqual({ kind: "site", src: "/images/sample/beach.svg" });
    expect(pictureOf("kelp-remote")).toBeNull();
  });

  it("lists blog posts among the newest results only, not on older stories' pages", async () => {
    expect((await searchSite(handle.db, "kelp", { page: 1 })).total).toBe(3);
    const before = { date: new Date("2030-01-01"), id: "" };
    expect(await searchSite(handle.db, "kelp", { page: 1, before })).toEqual({
      hits: [],
      total: 0,
    });
  });

  it("pages 20 at a time and counts every match", async () => {
    const first = await searchSite(handle.db, "tide report", { page: 1 });
    const second = await searchSite(handle.db, "tide report", { page: 2 });
    const beyond = await searchSite(handle.db, "tide report", { page: 3 });
    expect(first.total).toBe(25);
    expect(first.hits).toHaveLength(20);
    expect(second.hits).toHaveLength(5);
    expect(second.total).toBe(25);
    expect(beyond).toEqual({ hits: [], total: 25 });
    // Equal ranks: newest first.
    expect(first.hits[0]).toMatchObject({ kind: "article", id: "tide-24" });
  });

  it.each([
    ["only stop words", "the and of"],
    ["no such word", "zeppelin"],
    ["operators and quotes", `"harbor' & | ! <-> :* (`],
    ["SQL", "'; DROP TABLE articles; --"],
  ])("answers %s without an error", async (_, query) => {
    const result = await searchSite(handle.db, query, { page: 1 });
    expect(result.total).toBeGreaterThanOrEqual(0);
    expect(await handle.db.$count(articles)).toBe(29);
  });

  // Windows that do not cut (the last asked for, 1,000, is larger than the site): only faster.
  const speedWindows = [[1], [2, 5], [5, 20], [23]].map((sizes) => [...sizes, 1_000]);

  it.each(["harbor", "tide report", "council", "harbor -storm"])(
    "finds the same for %j whichever windows of the newest stories it reads first",
    async (query) => {
      await refreshSearchWindows(handle.db, []);
      const all = await searchSite(handle.db, query, { page: 1 });
      expect(all.total).toBeGreaterThan(0);
      for (const windows of speedWindows) {
        await refreshSearchWindows(handle.db, windows);
        expect(await searchWindowsOf(handle.db)).toHaveLength(windows.length - 1);
        expect(await searchSite(handle.db, query, { page: 1 })).toEqual(all);
      }
      await refreshSearchWindows(handle.db, []);
    },
  );

  it("searches a typo's corrected words through the same windows, whichever they are", async () => {
    await refreshSearchWindows(handle.db, []);
    const right = await searchSite(handle.db, "harbor", { page: 1 });
    const typo = await searchSite(handle.db, "harbr", { page: 1 });
    expect(typo).toEqual({ ...right, near: "harbor" });
    for (const windows of speedWindows) {
      await refreshSearchWindows(handle.db, windows);
      expect(await searchSite(handle.db, "harbr", { page: 1 })).toEqual(typo);
    }
    await refreshSearchWindows(handle.db, []);
  });

  it("ranks the largest window's matches alone when they fill a page, older ones by a link", async () => {
    await refreshSearchWindows(handle.db, []);
    const all = await searchSite(handle.db, "tide report", { page: 1, pageSize: 30 });
    expect(all.total).toBe(25);
    expect(all.older).toBeUndefined();
    // The newest 10 stories hold 7 tide reports (January 19 to 25): a page of 3 or more.
    await refreshSearchWindows(handle.db, [5, 10]);
    const [, largest] = await searchWindowsOf(handle.db);
    expect(largest).toMatchObject({ stories: 10, cuts: true, since: new Date("2026-01-19") });
    const newest = await searchSite(handle.db, "tide report", { page: 1, pageSize: 3 });
    expect(newest.total).toBe(7);
    expect(newest.older).toEqual({ date: new Date("2026-01-19"), id: "" });
    const recent = await searchSite(handle.db, "tide report", { page: 1, pageSize: 7 });
    const older = await searchSite(handle.db, "tide report", {
      page: 1,
      pageSize: 30,
      before: newest.older,
    });
    expect(older.total).toBe(18);
    expect(older.older).toBeUndefined();
    const ids = (page: SearchPage) => page.hits.map((h) => (h.kind === "article" ? h.id : h.slug));
    expect([...ids(recent), ...ids(older)].sort()).toEqual(ids(all).sort());
    // Fewer than a page in the window: older stories are read as before, and nothing is left.
    const few = await searchSite(handle.db, "tide report", { page: 1, pageSize: 8 });
    expect(few.total).toBe(25);
    expect(few.older).toBeUndefined();
    // A window of fewer stories than the site holds plus a quarter is not kept.
    await refreshSearchWindows(handle.db, [5, 24]);
    expect((await searchWindowsOf(handle.db)).map((w) => w.stories)).toEqual([5]);
    await refreshSearchWindows(handle.db, []);
    expect(await searchWindowsOf(handle.db)).toEqual([]);
  });

  it("supports quoted phrases and excluded words", async () => {
    const phrase = await searchSite(handle.db, '"harbor cleanup"', { page: 1 });
    expect(phrase.hits.map((h) => (h.kind === "article" ? h.id : h.slug))).toEqual([
      "title-match-old",
    ]);
    const without = await searchSite(handle.db, "harbor -storm", { page: 1 });
    expect(without.total).toBe(3);
  });

  it("keeps the blog copy in step with the source", async () => {
    const result = await syncBlogIndex(
      handle.db,
      blogOf([post("tide-pools", "Best tide pools in San Diego", "Sea stars.")]),
    );
    expect(result).toEqual({ posts: 1, removed: 4 });
    expect((await searchSite(handle.db, "speak council", { page: 1 })).total).toBe(0);
    const failing: BlogSource = {
      list: async () => {
        throw new Error("unreachable");
      },
      get: async () => null,
    };
    await expect(syncBlogIndex(handle.db, failing)).rejects.toThrow("unreachable");
    expect(await handle.db.$count(blogPosts)).toBe(1);
  });
});
