import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import { blogPosts, newsroomMedia, newsroomPosts, staff } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { createPost, publishPost, saveDraft, unpublishPost } from "../newsroom/posts";
import { createHostedBlogSource } from "./hosted";
import { createLocalBlogSource } from "./local";
import { refreshBlogIndex, syncBlogIndex } from "./search-index";
import { BLOG_PAGE_SIZE, BlogSourceError, type BlogSource } from "./source";
import { newestFirst } from "./source";
import { withNewsroomPosts } from "./with-newsroom";

reportSkippedPostgres();

const SITE_URL = "https://news.example.org";
const HASH = "ab".repeat(32);
const silent = pino({ level: "silent" });

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A BLOG_DIR of Markdown posts, each dated a calendar day. */
function localBlog(posts: { slug: string; day: string }[]): BlogSource {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-blog-merge-"));
  dirs.push(dir);
  for (const { slug, day } of posts) {
    fs.writeFileSync(
      path.join(dir, `${slug}.md`),
      `---\nslug: "${slug}"\ntitle: "Title of ${slug}"\ndescription: "About ${slug}"\ndate: "${day}"\n---\n\nBody of ${slug}.\n`,
    );
  }
  return createLocalBlogSource(dir, { siteUrl: SITE_URL, logger: silent });
}

const fields = (title: string, more: Partial<PostFields> = {}): PostFields => ({
  ...EMPTY_POST_FIELDS,
  title,
  description: `About ${title}`,
  bodyHtml: `<p>${title}, the whole post.</p>`,
  ...more,
});

/** The hosted API's list, paged as the spec's service pages it, on a real local server. */
function hostedApi(server: FixtureServer, prefix: string, slugs: () => string[] | null) {
  server.route(`${prefix}/get_metainfo`, (req: http.IncomingMessage, res: http.ServerResponse) => {
    const all = slugs();
    if (!all) return res.writeHead(500).end();
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page"));
    const blogs = all
      .slice((page - 1) * BLOG_PAGE_SIZE, page * BLOG_PAGE_SIZE)
      .map((slug) => ({ slug, metaTitle: `Hosted ${slug}` }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ blogs, total: all.length }));
  });
  server.route(`${prefix}/get_details`, (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!slugs()) return res.writeHead(500).end();
    const slug = new URL(req.url ?? "/", "http://x").searchParams.get("slug");
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        slug,
        metaTitle: `Hosted ${slug}`,
        metaDescription: "From the API.",
        date: "2025-06-10",
        blog: "<p>Hosted.</p>",
      }),
    );
  });
  return createHostedBlogSource({
    apiUrl: server.url(prefix),
    apiKey: "k",
    siteUrl: SITE_URL,
    // Each request reaches the API: the tests change its answers.
    cacheTtlMs: 0,
  });
}

/**
 * Every page of `source`, in order, and the totals they said (the page past the end aside: the
 * hosted source counts itself at least as far as the page asked for).
 */
async function allPages(source: BlogSource) {
  const slugs: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; page <= 50; page++) {
    const { posts, total } = await source.list(page);
    if (page === 1 || posts.length > 0) totals.add(total);
    expect(posts.length).toBeLessThanOrEqual(BLOG_PAGE_SIZE);
    if (posts.length === 0) break;
    slugs.push(...posts.map((p) => p.slug));
  }
  return { slugs, totals: [...totals] };
}

describe.each(testDatabases())("the blog with the newsroom's posts on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let api: FixtureServer;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    api = await startFixtureServer();
  });
  afterAll(async () => {
    await api?.close();
    await handle?.dispose();
  });
  beforeEach(async () => {
    await handle.db.delete(newsroomPosts);
    await handle.db.delete(newsroomMedia);
    await handle.db.delete(blogPosts);
  });

  /** A newsroom blog post as publishing leaves it (server/newsroom/posts.ts). */
  async function live(
    slug: string,
    at: Date,
    post: Partial<PostFields> = {},
    status: "published" | "draft" | "scheduled" | "unpublished" = "published",
    kind: "blog" | "story" = "blog",
  ) {
    const f = fields(`Newsroom ${slug}`, post);
    await handle.db.insert(newsroomPosts).values({
      kind,
      draft: f,
      live: status === "draft" || status === "scheduled" ? null : f,
      status,
      slug,
      firstPublishedAt: status === "draft" || status === "scheduled" ? null : at,
      createdBy: "writer@example.org",
      updatedBy: "writer@example.org",
    });
  }

  async function upload(focus = { x: 30, y: 70 }) {
    const [row] = await handle.db
      .insert(newsroomMedia)
      .values({
        hash: HASH,
        width: 2000,
        height: 1500,
        color: "#336699",
        focusX: focus.x,
        focusY: focus.y,
        alt: "Library alt",
        credit: "Library credit",
        bytes: 1000,
        uploadedBy: "writer@example.org",
      })
      .returning({ id: newsroomMedia.id });
    if (!row) throw new Error("no media row");
    return row.id;
  }

  describe("a newsroom post", () => {
    it("reads as a blog post: live fields, upload with its focus, bylines, topics", async () => {
      const mediaId = await upload();
      await live("harbor-lights", new Date("2025-07-01T16:30:00Z"), {
        title: "Harbor Lights",
        description: "The parade, block by block.",
        bodyHtml: "<p>Boats.</p>",
        bylines: ["Ana Ruiz", "Sam Lee", "Kim Bo"],
        mediaId,
        pictureAlt: "Boats lit up on the bay",
        pictureCredit: "Ana Ruiz / Ledger",
        videoUrl: "https://www.youtube.com/watch?v=Cc4Agenda_9",
        shortTailKeywords: "harbor, parade",
        longTailKeywords: "harbor parade route, Parade",
      });
      const blog = withNewsroomPosts(handle.db, localBlog([]), { logger: silent });
      const picture = {
        kind: "stored",
        hash: HASH,
        width: 2000,
        height: 1500,
        color: "#336699",
        focus: { x: 30, y: 70 },
      };
      expect(await blog.get("harbor-lights")).toEqual({
        slug: "harbor-lights",
        title: "Harbor Lights",
        description: "The parade, block by block.",
        image: `/images/${HASH}/1200.jpg`,
        date: "2025-07-01T16:30:00.000Z",
        picture,
        author: "Ana Ruiz, Sam Lee and Kim Bo",
        bylines: ["Ana Ruiz", "Sam Lee", "Kim Bo"],
        html: "<p>Boats.</p>",
        video: "https://www.youtube.com/watch?v=Cc4Agenda_9",
        shortTailKeywords: "harbor, parade",
        longTailKeywords: "harbor parade route, Parade",
        pictureAlt: "Boats lit up on the bay",
        pictureCredit: "Ana Ruiz / Ledger",
        topics: ["harbor", "parade", "harbor parade route"],
      });
      expect(await blog.list(1)).toEqual({
        posts: [
          {
            slug: "harbor-lights",
            title: "Harbor Lights",
            description: "The parade, block by block.",
            image: `/images/${HASH}/1200.jpg`,
            date: "2025-07-01T16:30:00.000Z",
            picture,
          },
        ],
        total: 1,
      });
    });

    it("without a picture, byline or video has none", async () => {
      await live("plain", new Date("2025-07-01T00:00:00Z"));
      const blog = withNewsroomPosts(handle.db, localBlog([]), { logger: silent });
      const post = await blog.get("plain");
      expect(post).toMatchObject({ image: null, author: null, video: null, topics: [] });
      expect(post).not.toHaveProperty("picture");
    });

    it("only published blog posts are listed or answered", async () => {
      const at = new Date("2025-07-01T00:00:00Z");
      await live("draft", at, {}, "draft");
      await live("scheduled", at, {}, "scheduled");
      await live("unpublished", at, {}, "unpublished");
      await live("a-story", at, {}, "published", "story");
      await live("published", at);
      const blog = withNewsroomPosts(handle.db, localBlog([]), { logger: silent });
      expect(await allPages(blog)).toEqual({ slugs: ["published"], totals: [1] });
      for (const slug of ["draft", "scheduled", "unpublished", "a-story"]) {
        expect(await blog.get(slug), slug).toBeNull();
      }
    });
  });

  describe("beside local Markdown posts", () => {
    it("lists both newest first, a page at a time, and answers the newsroom's slug first", async () => {
      const local = localBlog([
        { slug: "first-of-june", day: "2025-06-01" },
        { slug: "fifth-of-june", day: "2025-06-05" },
        { slug: "tenth-of-june", day: "2025-06-10" },
        { slug: "shared-slug", day: "2025-05-01" },
      ]);
      await live("twelfth", new Date("2025-06-12T08:00:00Z"));
      await live("seventh", new Date("2025-06-07T08:00:00Z"));
      await live("shared-slug", new Date("2025-04-01T08:00:00Z"));
      const blog = withNewsroomPosts(handle.db, local, { logger: silent });
      const first = await blog.list(1);
      expect(first.total).toBe(7);
      expect(first.posts.map((p) => p.slug)).toEqual([
        "twelfth",
        "tenth-of-june",
        "seventh",
        "fifth-of-june",
        "first-of-june",
        "shared-slug",
        "shared-slug",
      ]);
      expect(await blog.list(2)).toEqual({ posts: [], total: 7 });
      expect((await blog.get("shared-slug"))?.title).toBe("Newsroom shared-slug");
      expect((await blog.get("tenth-of-june"))?.title).toBe("Title of tenth-of-june");
      expect(await blog.get("nowhere")).toBeNull();
    });

    it("pages correctly across both, whatever their dates (property)", async () => {
      const day = fc.integer({ min: 1, max: 9 });
      const run = fc.asyncProperty(
        fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 999 }), day }), {
          selector: (p) => p.id,
          maxLength: 24,
        }),
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 0, max: 999 }),
            day,
            // Noon is the local posts' time of day: ties between the two are common.
            hour: fc.constantFrom(0, 12, 12, 23),
          }),
          { selector: (p) => p.id, maxLength: 24 },
        ),
        async (localPosts, ourPosts) => {
          await handle.db.delete(newsroomPosts);
          const local = localPosts.map((p) => ({
            slug: `local-${p.id}`,
            day: `2025-03-0${p.day}`,
          }));
          const ours = ourPosts.map((p) => ({
            slug: `ours-${p.id}`,
            date: new Date(Date.UTC(2025, 2, p.day, p.hour)),
          }));
          for (const p of ours) await live(p.slug, p.date);
          const blog = withNewsroomPosts(handle.db, localBlog(local), { logger: silent });
          const expected = [
            ...local.map((p) => ({ slug: p.slug, date: `${p.day}T12:00:00.000Z` })),
            ...ours.map((p) => ({ slug: p.slug, date: p.date.toISOString() })),
          ]
            .sort(newestFirst)
            .map((p) => p.slug);
          const pages = await allPages(blog);
          expect(pages.slugs).toEqual(expected);
          expect(pages.totals).toEqual([expected.length]);
        },
      );
      await fc.assert(run, { numRuns: 30 });
    }, 120_000);
  });

  describe("beside the hosted API", () => {
    it("lists the newsroom's posts first (the API's list has no dates), then the API's in its order", async () => {
      const hostedSlugs = Array.from({ length: 13 }, (_, i) => `hosted-${i + 1}`);
      const hosted = hostedApi(api, "/ordered", () => hostedSlugs);
      await live("older", new Date("2024-01-01T00:00:00Z"));
      await live("newer", new Date("2025-01-01T00:00:00Z"));
      await live("newest", new Date("2025-02-01T00:00:00Z"));
      const blog = withNewsroomPosts(handle.db, hosted, { logger: silent });
      const first = await blog.list(1);
      expect(first.total).toBe(16);
      expect(first.posts.map((p) => p.slug)).toEqual([
        "newest",
        "newer",
        "older",
        ...hostedSlugs.slice(0, 7),
      ]);
      expect((await blog.list(2)).posts.map((p) => p.slug)).toEqual(hostedSlugs.slice(7));
      expect(await allPages(blog)).toEqual({
        slugs: ["newest", "newer", "older", ...hostedSlugs],
        totals: [16],
      });
      expect((await blog.get("newer"))?.title).toBe("Newsroom newer");
      expect((await blog.get("hosted-3"))?.title).toBe("Hosted hosted-3");
    });

    it("pages correctly across both (property)", async () => {
      let hostedSlugs: string[] = [];
      const hosted = hostedApi(api, "/property", () => hostedSlugs);
      const run = fc.asyncProperty(
        fc.integer({ min: 0, max: 23 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 365 }), { maxLength: 23 }),
        async (hostedCount, days) => {
          await handle.db.delete(newsroomPosts);
          hostedSlugs = Array.from({ length: hostedCount }, (_, i) => `hosted-${i}`);
          const ours = days.map((d) => ({
            slug: `ours-${d}`,
            date: new Date(Date.UTC(2025, 0, d)).toISOString(),
          }));
          for (const p of ours) await live(p.slug, new Date(p.date));
          const blog = withNewsroomPosts(handle.db, hosted, { logger: silent });
          const pages = await allPages(blog);
          expect(pages.slugs).toEqual([
            ...ours.sort(newestFirst).map((p) => p.slug),
            ...hostedSlugs,
          ]);
          expect(pages.totals).toEqual([ours.length + hostedCount]);
        },
      );
      await fc.assert(run, { numRuns: 20 });
    }, 120_000);
  });

  describe("when the configured source fails", () => {
    it("lists the newsroom's posts alone, says why and logs it; a page with none fails", async () => {
      const hosted = hostedApi(api, "/down", () => null);
      const { logger, lines } = capturingLogger();
      const blog = withNewsroomPosts(handle.db, hosted, { logger });
      await expect(blog.list(1)).rejects.toThrow(new BlogSourceError("Failed to fetch blogs"));
      expect(lines).toEqual([]);

      await live("still-here", new Date("2025-01-02T00:00:00Z"));
      await live("also-here", new Date("2025-01-01T00:00:00Z"));
      expect(await blog.list(1)).toMatchObject({
        posts: [{ slug: "still-here" }, { slug: "also-here" }],
        total: 2,
        failure: "Failed to fetch blogs",
      });
      expect(lines).toMatchObject([
        {
          level: 50,
          msg: "the blog source could not be read: the list shows the newsroom's posts alone",
        },
      ]);
      await expect(blog.list(2)).rejects.toBeInstanceOf(BlogSourceError);
      expect((await blog.get("still-here"))?.title).toBe("Newsroom still-here");
      await expect(blog.get("elsewhere")).rejects.toThrow("Failed to fetch blog details");
    });
  });

  describe("the search copy", () => {
    async function writer() {
      await handle.db.delete(staff);
      const [row] = await handle.db
        .insert(staff)
        .values({ email: "writer@example.org", role: "editor", passwordHash: "x" })
        .returning();
      if (!row) throw new Error("no staff row");
      return { id: row.id, email: row.email };
    }

    it("keeps the newsroom's posts beside the source's, and their lastmod while they stay the same", async () => {
      const services = {
        db: handle.db,
        announceChange: () => handle.announceChange(),
        siteUrl: SITE_URL,
      };
      const actor = await writer();
      const mediaId = await upload();
      const id = await createPost(services, actor, "blog");
      await saveDraft(services, actor, id, {
        fields: fields("Tide Tables", { mediaId, pictureAlt: "Low tide" }),
        slug: "tide-tables",
      });
      const publishedAt = new Date("2025-08-01T10:00:00Z");
      expect(await publishPost(services, actor, id, null, publishedAt)).toMatchObject({
        ok: true,
      });
      const [copied] = await handle.db
        .select()
        .from(blogPosts)
        .where(eq(blogPosts.slug, "tide-tables"));
      expect(copied?.updatedAt).toEqual(publishedAt);

      const local = localBlog([{ slug: "markdown-post", day: "2025-06-01" }]);
      const blog = withNewsroomPosts(handle.db, local, { logger: silent });
      expect(await syncBlogIndex(handle.db, blog)).toEqual({ posts: 2, removed: 0 });
      const rows = await handle.db.select().from(blogPosts).orderBy(blogPosts.slug);
      expect(rows.map((r) => r.slug)).toEqual(["markdown-post", "tide-tables"]);
      // The sync wrote what publishing wrote: the newsroom post's copy did not change.
      expect(rows.find((r) => r.slug === "tide-tables")).toEqual(copied);
      const markdown = rows.find((r) => r.slug === "markdown-post");
      await syncBlogIndex(handle.db, blog);
      expect(
        (await handle.db.select().from(blogPosts).where(eq(blogPosts.slug, "markdown-post")))[0]
          ?.updatedAt,
      ).toEqual(markdown?.updatedAt);

      // A source listed without the newsroom's posts does not remove theirs.
      expect(await syncBlogIndex(handle.db, local)).toEqual({ posts: 1, removed: 0 });
      expect(await handle.db.$count(blogPosts)).toBe(2);

      // Unpublished, it leaves the copy, and a sync does not bring it back.
      await unpublishPost(services, actor, id);
      expect(await syncBlogIndex(handle.db, blog)).toEqual({ posts: 1, removed: 0 });
      expect((await handle.db.select().from(blogPosts)).map((r) => r.slug)).toEqual([
        "markdown-post",
      ]);
    });

    it("a source that fails changes nothing, though the newsroom's posts are listed", async () => {
      let up = true;
      const hosted = hostedApi(api, "/flaky", () => (up ? ["hosted-one"] : null));
      await live("ours", new Date("2025-01-01T00:00:00Z"));
      const blog = withNewsroomPosts(handle.db, hosted, { logger: silent });
      expect(await syncBlogIndex(handle.db, blog)).toEqual({ posts: 2, removed: 0 });
      up = false;
      await expect(syncBlogIndex(handle.db, blog)).rejects.toThrow("Failed to fetch blogs");
      expect(await refreshBlogIndex(handle.db, blog, silent)).toBeNull();
      expect((await handle.db.select().from(blogPosts)).map((r) => r.slug).sort()).toEqual([
        "hosted-one",
        "ours",
      ]);
    });
  });
});
