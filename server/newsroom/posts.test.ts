import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import {
  articles,
  blogPosts,
  newsroomMedia,
  newsroomPosts,
  newsroomRevisions,
  staff,
  staffAudit,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import type { NewsroomServices } from "./action";
import { readPostForm } from "./post-form";
import { compareFields, postById, revisionsOf } from "./post-reads";
import {
  createPost,
  publishDuePosts,
  publishPost,
  restoreRevision,
  saveDraft,
  unpublishPost,
} from "./posts";
import { UNPUBLISHED_REASON } from "./post-live";

reportSkippedPostgres();

const SITE = "https://news.example.org";
const HASH = "c".repeat(64);

const story: PostFields = {
  ...EMPTY_POST_FIELDS,
  title: "Harbor board votes on the budget",
  dek: "The vote comes after a month of hearings.",
  description: "The harbor board's budget vote.",
  bodyHtml: "<p>The board met on Tuesday.</p>",
  category: "local-news",
  bylines: ["Ana Ruiz", "Sam Lee"],
};

describe.each(testDatabases())("the newsroom's own posts on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let services: NewsroomServices & { siteUrl: string };
  let editor: { id: number; email: string };

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = { db: handle.db, announceChange: () => handle.announceChange(), siteUrl: SITE };
  });
  afterAll(() => handle?.dispose());
  beforeEach(async () => {
    await handle.db.delete(newsroomPosts);
    await handle.db.delete(newsroomMedia);
    await handle.db.delete(articles);
    await handle.db.delete(blogPosts);
    await handle.db.delete(staffAudit);
    await handle.db.delete(staff);
    const [row] = await handle.db
      .insert(staff)
      .values({ email: "writer@example.org", role: "editor", passwordHash: "x" })
      .returning();
    if (!row) throw new Error("no staff row");
    editor = { id: row.id, email: row.email };
  });

  const draftOf = async (fields: PostFields, kind: "story" | "blog" = "story", slug = "") => {
    const id = await createPost(services, editor, kind);
    expect(await saveDraft(services, editor, id, { fields, slug })).toMatchObject({ ok: true });
    return id;
  };
  const auditActions = async () =>
    (await handle.db.select().from(staffAudit).orderBy(staffAudit.id)).map((a) => a.action);

  it("keeps a draft off the site until it is published, then lists it as an own story", async () => {
    const id = await draftOf(story);
    expect(await handle.db.select().from(articles)).toHaveLength(0);

    const published = await publishPost(services, editor, id, null);
    expect(published).toEqual({ ok: true, message: "Published." });
    const post = await postById(handle.db, id);
    expect(post?.status).toBe("published");
    const [row] = await handle.db.select().from(articles);
    expect(row).toMatchObject({
      id: post?.articleId,
      own: true,
      title: story.title,
      excerpt: story.dek,
      author: "Ana Ruiz and Sam Lee",
      bylines: ["Ana Ruiz", "Sam Lee"],
      category: "local-news",
      link: `${SITE}/article/${post?.articleId}`,
      takenDownAt: null,
    });
    expect(post?.articleId).toMatch(/^harbor-board-votes-on-the-budget-n\d+$/);

    // Later saves change the draft only; readers see the live copy until it is published again.
    await saveDraft(services, editor, id, {
      fields: { ...story, title: "Half-written" },
      slug: "",
    });
    const [still] = await handle.db.select().from(articles);
    expect(still?.title).toBe(story.title);
    expect(await publishPost(services, editor, id, null)).toMatchObject({
      message: "Updated on the site.",
    });
    const [updated] = await handle.db.select().from(articles);
    expect(updated).toMatchObject({ id: post?.articleId, title: "Half-written" });
    expect(updated?.publishedAt).toEqual(row?.publishedAt);
    expect(await auditActions()).toEqual(["story.create", "story.publish", "story.publish"]);
  });

  it("says what a post still needs and publishes nothing", async () => {
    const id = await draftOf({ ...story, title: "", category: null, mediaId: 7 });
    const result = await publishPost(services, editor, id, null);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain("Give the headline.");
      expect(result.error).toContain("Choose a category.");
      expect(result.error).toContain("alt text");
    }
    expect(await handle.db.select().from(articles)).toHaveLength(0);
    expect((await postById(handle.db, id))?.status).toBe("draft");
  });

  it("publishes a scheduled story at its time, once, however many processes look", async () => {
    const id = await draftOf(story);
    const at = new Date("2026-12-01T17:00:00Z");
    expect(await publishPost(services, editor, id, at, new Date("2026-12-01T16:00:00Z"))).toEqual({
      ok: true,
      message: "Scheduled.",
    });
    expect(await publishDuePosts(handle.db, SITE, new Date("2026-12-01T16:59:59Z"))).toEqual({
      published: 0,
      purge: [],
    });
    expect(await handle.db.select().from(articles)).toHaveLength(0);

    const due = new Date("2026-12-01T17:00:05Z");
    const counts = await Promise.all([
      publishDuePosts(handle.db, SITE, due),
      publishDuePosts(handle.db, SITE, due),
      publishDuePosts(handle.db, SITE, due),
    ]);
    expect(counts.reduce((a, b) => a + b.published, 0)).toBe(1);
    // The one that published it names the pages to purge: home, its category, lists, its page.
    const purge = counts.flatMap((count) => count.purge);
    expect(purge).toEqual(expect.arrayContaining(["home", "feeds", "sitemaps"]));
    expect(purge.filter((key) => key.startsWith("category-"))).toHaveLength(1);
    const [row] = await handle.db.select().from(articles);
    expect(row?.publishedAt).toEqual(due);
    const revisions = await handle.db
      .select()
      .from(newsroomRevisions)
      .where(eq(newsroomRevisions.kind, "publish"));
    expect(revisions).toHaveLength(1);
    expect(revisions[0]?.staffEmail).toBe(editor.email);
    expect(await auditActions()).toEqual(["story.create", "story.schedule", "story.publish"]);
  });

  it("unpublishes a story (its address answers 410) and publishes it again at the same address", async () => {
    const id = await draftOf(story);
    await publishPost(services, editor, id, null);
    expect(await unpublishPost(services, editor, id)).toEqual({
      ok: true,
      message: "Taken off the site.",
    });
    const [down] = await handle.db.select().from(articles);
    expect(down?.takedownReason).toBe(UNPUBLISHED_REASON);
    expect(down?.takenDownAt).not.toBeNull();

    await publishPost(services, editor, id, null);
    const [back] = await handle.db.select().from(articles);
    expect(back).toMatchObject({ id: down?.id, takenDownAt: null });
    expect(await auditActions()).toEqual([
      "story.create",
      "story.publish",
      "story.unpublish",
      "story.publish",
    ]);
  });

  it("gives a blog post a fixed address and copies it for search until it is unpublished", async () => {
    const fields = { ...story, category: null, dek: "" };
    const taken = await draftOf(fields, "blog", "harbor-notes");
    const id = await createPost(services, editor, "blog");
    expect(await saveDraft(services, editor, id, { fields, slug: "harbor-notes" })).toEqual({
      ok: false,
      error: "Another post has that address: choose another.",
    });
    await publishPost(services, editor, taken, null);
    expect((await postById(handle.db, taken))?.slug).toBe("harbor-notes");
    expect(await handle.db.select().from(blogPosts)).toMatchObject([
      { slug: "harbor-notes", title: story.title },
    ]);
    // Once published, the address stays whatever is asked.
    await saveDraft(services, editor, taken, { fields, slug: "another" });
    expect((await postById(handle.db, taken))?.slug).toBe("harbor-notes");

    await unpublishPost(services, editor, taken);
    expect(await handle.db.select().from(blogPosts)).toHaveLength(0);
  });

  it("keeps one autosave revision per writer and sitting, and restores an earlier one", async () => {
    const id = await createPost(services, editor, "story", new Date("2026-12-01T10:00:00Z"));
    const first = { ...story, title: "First words" };
    await saveDraft(
      services,
      editor,
      id,
      { fields: first, slug: "" },
      new Date("2026-12-01T10:01:00Z"),
    );
    for (const minute of [2, 3, 4]) {
      await saveDraft(
        services,
        editor,
        id,
        { fields: { ...story, title: `Typing ${minute}` }, slug: "", autosave: true },
        new Date(`2026-12-01T10:0${minute}:00Z`),
      );
    }
    const revisions = await revisionsOf(handle.db, id);
    expect(revisions.map((r) => [r.kind, r.title])).toEqual([
      ["autosave", "Typing 4"],
      ["save", "First words"],
      ["save", ""],
    ]);
    const saved = revisions[1];
    if (!saved) throw new Error("no saved revision");
    expect(await restoreRevision(services, editor, id, saved.id)).toMatchObject({ ok: true });
    expect((await postById(handle.db, id))?.draft.title).toBe("First words");
    expect((await revisionsOf(handle.db, id))[0]).toMatchObject({ kind: "restore" });

    const changes = compareFields(first, {
      ...first,
      title: "Second words",
      bylines: ["Ana Ruiz"],
    });
    expect(changes.map((c) => c.label)).toEqual(["Headline", "Bylines"]);
    expect(changes[0]?.parts).toEqual([
      { text: "First", change: "removed" },
      { text: "Second", change: "added" },
      { text: " words", change: "same" },
    ]);
  });

  it("refuses a picture no longer in the library", async () => {
    const [media] = await handle.db
      .insert(newsroomMedia)
      .values({ hash: HASH, width: 800, height: 600, color: "#336699", bytes: 1, uploadedBy: "x" })
      .returning();
    if (!media) throw new Error("no media row");
    const id = await draftOf({ ...story, mediaId: media.id, pictureAlt: "The harbor" });
    await handle.db.delete(newsroomMedia);
    expect(await publishPost(services, editor, id, null)).toEqual({
      ok: false,
      error: "The chosen picture is no longer in the library: choose another.",
    });
  });
});

describe("the editor's form", () => {
  const form = (values: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(values)) data.set(name, value);
    return data;
  };
  const fieldsOf = (read: ReturnType<typeof readPostForm>) => {
    if (!read.ok) throw new Error(`refused: ${JSON.stringify(read.errors)}`);
    return read.fields;
  };
  const errorsOf = (read: ReturnType<typeof readPostForm>) => (read.ok ? {} : read.errors);

  it("neutralises hostile HTML from the rich editor", () => {
    const fields = fieldsOf(
      readPostForm(
        form({
          title: "  A   title ",
          bodyFormat: "html",
          body:
            '<p onclick="steal()">Hi<script>alert(1)</script></p><img src=x onerror=alert(1)>' +
            '<a href="javascript:alert(1)">click</a><iframe src="https://evil.example"></iframe>' +
            `<img src="https://evil.example/track.gif"><img src="/images/${HASH}/960.jpg" alt="Ours">` +
            '<svg><script>alert(2)</script></svg><style>body{}</style><form action="/x"><input></form>',
        }),
        "story",
        SITE,
      ),
    );
    expect(fields.title).toBe("A title");
    expect(fields.bodyHtml).toBe(
      `<p>Hi</p><span>click</span><img src="/images/${HASH}/960.jpg" alt="Ours" loading="lazy" />`,
    );
  });

  it("reads Markdown from the plain text area", () => {
    const read = readPostForm(
      form({
        title: "Notes",
        bodyFormat: "markdown",
        body: "## Heading\n\nSome **bold** and [a link](https://example.org).\n\n<script>x</script>",
        bylines: "Ana Ruiz, Sam Lee\nKim Park",
        category: "sports",
        videoUrl: "https://youtu.be/dQw4w9WgXcQ",
      }),
      "story",
      SITE,
    );
    expect(errorsOf(read)).toEqual({});
    const fields = fieldsOf(read);
    expect(fields.bodyHtml).toBe(
      '<h2>Heading</h2>\n<p>Some <strong>bold</strong> and <a href="https://example.org/" target="_blank" rel="noopener noreferrer">a link</a>.</p>',
    );
    expect(fields.bylines).toEqual(["Ana Ruiz", "Sam Lee", "Kim Park"]);
    expect(fields.category).toBe("sports");
  });

  it("says which fields are wrong", () => {
    const errors = errorsOf(
      readPostForm(
        form({
          title: "x".repeat(201),
          category: "not-a-category",
          videoUrl: "https://evil.example/video",
          bylines: "a,b,c,d,e,f",
          mediaId: "-3",
          slug: "Bad Slug!",
        }),
        "blog",
        SITE,
      ),
    );
    expect(Object.keys(errors).sort()).toEqual(["bylines", "mediaId", "slug", "title", "videoUrl"]);
    expect(errors.title).toBe("Keep the headline under 200 characters.");
    expect(errors.bylines).toBe("Give at most 5 names.");
  });

  it("keeps to each kind's fields and reads a missing or file field as empty", () => {
    const sent = form({ title: "Kinds", dek: "A dek", category: "sports", slug: "my-post" });
    const story = fieldsOf(readPostForm(sent, "story", SITE));
    expect([story.dek, story.category]).toEqual(["A dek", "sports"]);
    expect(readPostForm(sent, "story", SITE)).toMatchObject({ slug: "" });
    const blog = readPostForm(sent, "blog", SITE);
    expect(fieldsOf(blog)).toMatchObject({ dek: "", category: null });
    expect(blog).toMatchObject({ slug: "my-post" });

    const odd = new FormData();
    odd.append("title", new File(["x"], "title.txt"));
    odd.append("bylines", "Ana Ruiz");
    odd.append("bylines", "ignored second value");
    const read = fieldsOf(readPostForm(odd, "story", SITE));
    expect(read).toMatchObject({ title: "", bylines: ["Ana Ruiz"], mediaId: null, videoUrl: "" });
  });

  it("says a body over the limit is too long without sanitising it", () => {
    const errors = errorsOf(readPostForm(form({ body: "x".repeat(200_001) }), "story", SITE));
    expect(errors).toEqual({ bodyHtml: "The body is longer than 200,000 characters." });
  });
});
