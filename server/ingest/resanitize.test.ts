import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { runIngestPass } from "./ingest";
import { resanitizeArticles } from "./resanitize";
import { SANITIZE_POLICY_VERSION } from "./sanitize";

reportSkippedPostgres();

const HOSTILE =
  '<p onclick="alert(1)">Hi <a href="javascript:alert(2)">there</a></p><script>alert(3)</script><iframe src="https://evil.example/"></iframe>';
const CLEAN =
  '<p>Read <a href="https://news.example.com/a" target="_blank" rel="noopener noreferrer">on</a></p>';
const WHEN = new Date("2026-11-20T12:00:00Z");

function article(id: string, content: string, sanitizePolicy: number) {
  return {
    id,
    category: "local-news",
    guid: `https://news.example.com/${id}`,
    link: `https://news.example.com/${id}`,
    title: `Title ${id}`,
    excerpt: `Excerpt ${id}`,
    content,
    sanitizePolicy,
    image: "https://news.example.com/i.jpg",
    author: "A. Writer",
    publishedAt: WHEN,
    firstSeenAt: WHEN,
    updatedAt: WHEN,
  };
}

describe.each(testDatabases())("resanitizeArticles on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let changes = 0;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.onChange(() => changes++);
    await handle.db
      .insert(articles)
      .values([
        article("old-hostile", HOSTILE, 0),
        article("old-clean", CLEAN, 0),
        article("current-hostile", HOSTILE, SANITIZE_POLICY_VERSION),
      ]);
  });
  afterAll(() => handle.dispose());

  const row = async (id: string) =>
    (await handle.db.select().from(articles).where(eq(articles.id, id)))[0];

  it("rewrites rows sanitised under an older policy, in batches, and tells the caches", async () => {
    expect(await resanitizeArticles(handle, 1)).toEqual({ checked: 2, rewritten: 1 });
    // PostgreSQL's notice arrives asynchronously.
    await expect.poll(() => changes).toBe(1);

    const hostile = await row("old-hostile");
    expect(hostile).toEqual({
      ...article("old-hostile", "<p>Hi <span>there</span></p>", SANITIZE_POLICY_VERSION),
      feedId: null,
      picture: null,
      // Its body changed: the picture pass lists its pictures again.
      picturesListed: false,
      takenDownAt: null,
      takedownReason: null,
      feedTitle: null,
      defaultPicture: false,
      own: false,
      bylines: null,
      pictureAlt: null,
      pictureCredit: null,
      search: expect.any(String),
      storyGroup: null,
      groupLead: true,
      categoryLead: true,
      alsoCoveredBy: null,
    });
    expect((await row("old-clean"))?.content).toBe(CLEAN);
    expect((await row("old-clean"))?.sanitizePolicy).toBe(SANITIZE_POLICY_VERSION);
  });

  it("leaves rows already sanitised under the current policy alone", async () => {
    expect((await row("current-hostile"))?.content).toBe(HOSTILE);
    expect(await resanitizeArticles(handle)).toEqual({ checked: 0, rewritten: 0 });
    expect(changes).toBe(1);
  });

  it("runs at the start of every ingest pass", async () => {
    await handle.db.insert(articles).values(article("old-again", HOSTILE, 0));
    await runIngestPass([], {
      database: handle,
      logger: pino({ level: "silent" }),
      siteUrl: "http://127.0.0.1:3000",
      siteName: "Test Ledger",
    });
    expect((await row("old-again"))?.content).toBe("<p>Hi <span>there</span></p>");
  });
});
