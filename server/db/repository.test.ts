import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasVoted, pollResults, recordVote, saveContactMessage } from "../forms/repository";
import { addSubscriber, listSubscribers } from "../test-support/subscribers";
import {
  articleById,
  countArticles,
  ensureFeeds,
  latestArticles,
  listFeeds,
  upsertArticle,
  type NewArticle,
} from "../news/repository";
import { archiveArticles, archiveYears } from "../news/archive";
import { contactMessages } from "./schema";
import { rowsOf } from "./client";
import { reportSkippedPostgres, testDatabases } from "./test-databases";

reportSkippedPostgres();

function article(overrides: Partial<NewArticle> & { id: string }): NewArticle {
  return {
    category: "local-news",
    link: `https://sample.example.org/${overrides.id}`,
    title: `Title ${overrides.id}`,
    excerpt: `Excerpt ${overrides.id}`,
    content: "<p>Body</p>",
    image: null,
    author: "Staff Writer",
    publishedAt: new Date("2025-06-01T12:00:00Z"),
    ...overrides,
  };
}

describe.each(testDatabases())("repository on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("applies every migration to an empty database, and again without effect", async () => {
    await handle.migrate();
    const tables = rowsOf<{ table_name: string }>(
      await handle.db.execute(
        sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      ),
    );
    expect(tables.map((r) => r.table_name)).toEqual([
      "archive_counts",
      "article_pictures",
      "articles",
      "block_rules",
      "blog_posts",
      "breaking_banner",
      "contact_messages",
      "corrections",
      "feeds",
      "form_rate_limits",
      "newsletter_confirmations",
      "newsletter_deliveries",
      "newsletter_issues",
      "newsletter_subscribers",
      "newsletter_suppressions",
      "newsroom_media",
      "newsroom_posts",
      "newsroom_revisions",
      "pictures",
      "poll_votes",
      "search_windows",
      "search_words",
      "sign_in_failures",
      "site_secrets",
      "sitemap_months",
      "staff",
      "staff_audit",
      "staff_sessions",
      "story_group_overrides",
      "story_groups",
      "story_pins",
      "upkeep_runs",
    ]);
    expect(await handle.ping()).toBe(true);
  });

  it("registers feeds once and lists them", async () => {
    const [first] = (
      await ensureFeeds(handle.db, [{ url: "https://a.example.org/rss", category: "local-news" }])
    ).map((r) => r.feed);
    const [again, other, twice] = (
      await ensureFeeds(handle.db, [
        { url: "https://a.example.org/rss", category: "politics" },
        { url: "https://b.example.org/rss", category: "sports" },
        { url: "https://a.example.org/rss", category: "politics" },
      ])
    ).map((r) => r.feed);
    expect(again?.id).toBe(first?.id);
    expect(again?.category).toBe("politics");
    expect(twice?.id).toBe(first?.id);
    expect(other?.category).toBe("sports");
    expect((await listFeeds(handle.db)).map((f) => f.url)).toEqual([
      "https://a.example.org/rss",
      "https://b.example.org/rss",
    ]);
  });

  it("stores, updates and reads articles, newest first", async () => {
    await upsertArticle(
      handle.db,
      article({ id: "older", publishedAt: new Date("2024-03-01T00:00:00Z") }),
    );
    await upsertArticle(handle.db, article({ id: "newer", category: "politics" }));
    const firstSeen = rowsOf<{ first_seen_at: Date }>(
      await handle.db.execute(sql`SELECT first_seen_at FROM articles WHERE id = 'older'`),
    )[0]?.first_seen_at;

    await upsertArticle(
      handle.db,
      article({
        id: "older",
        title: "Edited title",
        publishedAt: new Date("2024-03-01T00:00:00Z"),
      }),
    );
    expect(await countArticles(handle.db)).toBe(2);
    const older = await articleById(handle.db, "older");
    expect(older).toMatchObject({
      id: "older",
      title: "Edited title",
      category: "local-news",
      date: "2024-03-01T00:00:00.000Z",
      author: "Staff Writer",
      picture: null,
    });
    const after = rowsOf<{ first_seen_at: Date }>(
      await handle.db.execute(sql`SELECT first_seen_at FROM articles WHERE id = 'older'`),
    )[0]?.first_seen_at;
    expect(String(after)).toBe(String(firstSeen));

    expect((await latestArticles(handle.db, { limit: 10 })).map((a) => a.id)).toEqual([
      "newer",
      "older",
    ]);
    expect(
      (await latestArticles(handle.db, { limit: 10, category: "politics" })).map((a) => a.id),
    ).toEqual(["newer"]);
    expect(
      (await latestArticles(handle.db, { limit: 10, excludeId: "newer" })).map((a) => a.id),
    ).toEqual(["older"]);
    expect(await articleById(handle.db, "missing")).toBeUndefined();
  });

  it("filters the archives by year in San Diego time and by category", async () => {
    // 07:30 UTC on New Year's Day is still the previous year in San Diego.
    await upsertArticle(
      handle.db,
      article({ id: "new-years-eve", publishedAt: new Date("2023-01-01T07:30:00Z") }),
    );
    expect(await archiveYears(handle.db)).toEqual([2025, 2024, 2022]);
    const y2022 = await archiveArticles(handle.db, { year: 2022, limit: 30, offset: 0 });
    expect(y2022.total).toBe(1);
    expect(y2022.articles[0]?.id).toBe("new-years-eve");
    const politics2025 = await archiveArticles(handle.db, {
      year: 2025,
      category: "politics",
      limit: 30,
      offset: 0,
    });
    expect(politics2025.articles.map((a) => a.id)).toEqual(["newer"]);
    const local2025 = await archiveArticles(handle.db, {
      year: 2025,
      category: "local-news",
      limit: 30,
      offset: 0,
    });
    expect(local2025.total).toBe(0);
  });

  it("stores a newsletter address once, normalised", async () => {
    expect(await addSubscriber(handle.db, "  Reader@Example.COM ")).toEqual({ created: true });
    expect(await addSubscriber(handle.db, "reader@example.com")).toEqual({ created: false });
    const list = await listSubscribers(handle.db);
    expect(list.map((s) => s.email)).toEqual(["reader@example.com"]);
  });

  it("counts one poll vote per voter", async () => {
    expect(
      await recordVote(handle.db, { pollId: "p", option: "Homelessness", voterId: "v1" }),
    ).toEqual({
      counted: true,
      outcome: "counted",
    });
    expect(
      await recordVote(handle.db, { pollId: "p", option: "Jobs & economy", voterId: "v1" }),
    ).toEqual({
      counted: false,
      outcome: "already",
    });
    await recordVote(handle.db, { pollId: "p", option: "Homelessness", voterId: "v2" });
    expect(await hasVoted(handle.db, "p", "v1")).toBe(true);
    expect(await hasVoted(handle.db, "p", "v3")).toBe(false);
    expect(await pollResults(handle.db, "p")).toEqual([{ option: "Homelessness", votes: 2 }]);
  });

  it("stores contact messages", async () => {
    const { id } = await saveContactMessage(handle.db, {
      name: "Ana",
      email: "Ana@Example.com",
      category: "tips",
      message: "Pothole on Fifth Avenue",
    });
    const rows = await handle.db.select().from(contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, name: "Ana", email: "ana@example.com", category: "tips" });
  });
});
