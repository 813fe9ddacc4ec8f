import { eq } from "drizzle-orm";
import { XMLValidator } from "fast-xml-parser";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, staffAudit } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { staffClient } from "../staff/test-client";
import { upsertArticle } from "../news/repository";
import { addStaff } from "../staff/accounts";

/**
 * The story actions over HTTP, against the production build with its page cache on: what an editor
 * and an admin may do, that a post needs the session's form token, that feed text shown to staff is
 * inert, and that each action shows on the public pages at once (the cached pages drop).
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

const PASSWORD = "a long enough password";
/** The app's log, as JSON lines: a request the newsroom cannot answer must not log an error. */
const logLines: { level: number; msg: string }[] = [];
const logger = pino(
  { level: "warn" },
  {
    write: (line: string) => void logLines.push(JSON.parse(line) as { level: number; msg: string }),
  },
);
const ERROR_LEVEL = 50;
const HOSTILE = `<img src=x onerror="alert(1)">Council <b>vote</b>`;
const STORY = "harbor-budget-vote";
const OTHER = "bay-ferry-returns";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  const hourAgo = (h: number) => new Date(Date.now() - h * 3600_000);
  await upsertArticle(handle.db, {
    id: STORY,
    category: "local-news",
    link: "https://sample.example.org/harbor-budget-vote",
    title: "Harbor budget vote set for Tuesday",
    excerpt: "The port board meets to vote on the harbor budget.",
    content: "<p>The port board meets on Tuesday.</p>",
    author: HOSTILE,
    publishedAt: hourAgo(1),
  });
  await upsertArticle(handle.db, {
    id: OTHER,
    category: "local-news",
    link: "https://sample.example.org/bay-ferry",
    title: HOSTILE,
    excerpt: "The bay ferry returns this spring.",
    content: "<p>Ferry.</p>",
    author: "Staff Writer",
    publishedAt: hourAgo(30),
  });
  await addStaff(handle.db, { email: "chief@example.org", role: "admin", password: PASSWORD });
  await addStaff(handle.db, { email: "editor@example.org", role: "editor", password: PASSWORD });
  app = await startTestApp(handle, { PAGE_CACHE_MB: "16", READ_CACHE_MB: "16" }, logger);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

const client = staffClient({ base: () => app.base, password: PASSWORD });
const { get, post } = client;
const signedIn = (email: string) => client.signedIn(email, "/newsroom/stories");

/** Asks twice, so a page the cache could keep is kept, and answers the second. */
async function publicPage(address: string) {
  await get(address);
  const response = await get(address);
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    body: await response.text(),
  };
}

describe("story actions over HTTP", () => {
  it("shows staff the feed's text as text, never as markup", async () => {
    const { cookie } = await signedIn("editor@example.org");
    for (const address of [
      "/newsroom/stories",
      `/newsroom/stories/${OTHER}`,
      `/newsroom/stories/${STORY}`,
    ]) {
      const body = await (await get(address, cookie)).text();
      expect(body, address).not.toContain("<img src=x");
      expect(body, address).not.toContain("<b>vote</b>");
      expect(body, address).toContain(
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Council &lt;b&gt;vote&lt;/b&gt;",
      );
    }
  });

  it("refuses a story action without the session's form token", async () => {
    const { cookie } = await signedIn("editor@example.org");
    const response = await post(
      `/newsroom/stories/${STORY}`,
      { intent: "take-down", reason: "Legal request" },
      cookie,
    );
    expect(response.status).toBe(403);
    expect((await get(`/article/${STORY}`)).status).toBe(200);
  });

  it("lets an editor take a story down (410, gone from every list at once) and an admin restore it", async () => {
    const before = await publicPage("/");
    expect(before.cache).toBe("HIT");
    expect(before.body).toContain(`/article/${STORY}`);
    expect((await publicPage("/rss.xml")).body).toContain(`/article/${STORY}`);

    const editor = await signedIn("editor@example.org");
    const down = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "take-down", reason: "Legal request" },
      editor.cookie,
    );
    expect(down.status).toBe(303);
    expect(down.headers.get("location")).toBe(`/newsroom/stories/${STORY}?done=take-down`);

    const gone = await get(`/article/${STORY}`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("cache-control")).toBe("no-store");
    const notice = await gone.text();
    expect(notice).toContain("This story has been removed");
    expect(notice).not.toContain("Harbor budget vote");
    expect(notice).not.toContain("Legal request");
    expect(notice).toMatch(/<meta name="robots" content="noindex/);
    for (const address of [
      "/",
      "/local-news",
      "/rss.xml",
      "/local-news/rss.xml",
      "/search?q=harbor",
      "/news-sitemap.xml",
      // This month's article sitemap: the seeded stories were first seen now.
      `/sitemaps/articles-${new Date().toISOString().slice(0, 7)}.xml`,
    ]) {
      const page = await publicPage(address);
      expect(page.status, address).toBe(200);
      expect(page.body, address).not.toContain(`/article/${STORY}`);
    }

    const admin = await signedIn("chief@example.org");
    const back = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: admin.csrf, intent: "restore" },
      admin.cookie,
    );
    expect(back.status).toBe(303);
    expect((await get(`/article/${STORY}`)).status).toBe(200);
    expect((await publicPage("/")).body).toContain(`/article/${STORY}`);

    const audit = await handle.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.subject, STORY))
      .orderBy(staffAudit.id);
    expect(audit.map((e) => [e.staffEmail, e.action])).toEqual([
      ["editor@example.org", "story.take-down"],
      ["chief@example.org", "story.restore"],
    ]);
  });

  it("lets an editor and an admin alike manage block rules (content work, not an admin's)", async () => {
    for (const email of ["editor@example.org", "chief@example.org"]) {
      const member = await signedIn(email);
      const added = await post(
        "/newsroom/rules",
        { _csrf: member.csrf, intent: "add", pattern: `casino ${email}`, field: "title", feed: "" },
        member.cookie,
      );
      expect(added.status, email).toBe(303);
      expect(added.headers.get("location")).toBe("/newsroom/rules?done=add");
      const page = await (await get("/newsroom/rules", member.cookie)).text();
      const id = new RegExp(`name="rule" value="(\\d+)"[^]*?casino ${email}`).exec(page)?.[1];
      expect(id, email).toBeDefined();
      const removed = await post(
        "/newsroom/rules",
        { _csrf: member.csrf, intent: "remove", rule: id ?? "" },
        member.cookie,
      );
      expect(removed.status, email).toBe(303);
    }
    const actions = await handle.db
      .select({ who: staffAudit.staffEmail, action: staffAudit.action })
      .from(staffAudit)
      .where(eq(staffAudit.action, "rule.add"));
    expect(actions.map((a) => a.who)).toEqual(["editor@example.org", "chief@example.org"]);
  });

  it("answers a refused action on the page, and changes nothing", async () => {
    const editor = await signedIn("editor@example.org");
    const response = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "take-down", reason: "" },
      editor.cookie,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Say why the story comes down.");
    const [row] = await handle.db.select().from(articles).where(eq(articles.id, STORY));
    expect(row?.takenDownAt).toBeNull();
  });

  it("publishes a correction on the story, in its JSON-LD, at /corrections and in its feed", async () => {
    await publicPage(`/article/${STORY}`);
    const editor = await signedIn("editor@example.org");
    const text = "An earlier version gave the wrong day for the vote.";
    const response = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "correct", correction: text },
      editor.cookie,
    );
    expect(response.status).toBe(303);
    const article = (await publicPage(`/article/${STORY}`)).body;
    const note = article.indexOf(text);
    expect(note).toBeGreaterThan(-1);
    expect(note).toBeLessThan(article.indexOf("The port board meets on Tuesday."));
    const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(article)?.[1] ?? "";
    const graph = (JSON.parse(jsonLd) as { "@graph": Record<string, unknown>[] })["@graph"];
    const story = graph.find((node) => node["@type"] === "NewsArticle");
    expect(story?.correction).toEqual([
      { "@type": "CorrectionComment", text, datePublished: expect.stringMatching(/^\d{4}-/) },
    ]);

    const page = await publicPage("/corrections");
    expect(page.status).toBe(200);
    expect(page.body).toContain(text);
    expect(page.body).toContain(`href="/article/${STORY}"`);
    expect(page.body).toMatch(/<link rel="canonical" href="[^"]*\/corrections"/);
    const feed = await get("/corrections/rss.xml");
    expect(feed.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await feed.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain(`<title>Correction: Harbor budget vote set for Tuesday</title>`);
    expect(xml).toContain(text);
    expect(await (await get("/sitemaps/pages.xml")).text()).toContain("/corrections</loc>");
  });

  it("pins a story first in the headlines and the slider, and retitles it without losing the feed's", async () => {
    await publicPage("/");
    const editor = await signedIn("editor@example.org");
    expect(
      (
        await post(
          `/newsroom/stories/${OTHER}`,
          { _csrf: editor.csrf, intent: "pin", hours: "24" },
          editor.cookie,
        )
      ).status,
    ).toBe(303);
    expect(
      (
        await post(
          `/newsroom/stories/${OTHER}`,
          { _csrf: editor.csrf, intent: "headline", headline: "Bay ferry is back" },
          editor.cookie,
        )
      ).status,
    ).toBe(303);
    const home = (await publicPage("/")).body;
    const headlines = home.slice(home.indexOf("Today&#x27;s Headlines"));
    expect(headlines.indexOf(`/article/${OTHER}`)).toBeLessThan(
      headlines.indexOf(`/article/${STORY}`),
    );
    expect(home).toContain("Bay ferry is back");
    const staffView = await (await get(`/newsroom/stories/${OTHER}`, editor.cookie)).text();
    expect(staffView).toContain("Bay ferry is back");
    expect(staffView).toContain("&lt;img src=x onerror");
    expect(staffView).toContain("Pinned at place 1");
  });
});

describe("the newsroom's story list and links over HTTP", () => {
  /** The story page's "View on site" address. */
  async function viewOnSite(cookie: string): Promise<string> {
    const page = await (await get(`/newsroom/stories/${STORY}`, cookie)).text();
    const link = /<a href="(\/article\/[^"]+)"[^>]*>View on site<\/a>/.exec(page)?.[1];
    if (!link) throw new Error("no View on site link");
    return link.replaceAll("&amp;", "&");
  }

  it("finds a word of a story's text, not its headline, as readers' search does", async () => {
    // "board" is in the story's summary only.
    expect((await publicPage("/search?q=board")).body).toContain(`/article/${STORY}`);
    const editor = await signedIn("editor@example.org");
    const page = await (await get("/newsroom/stories?q=board", editor.cookie)).text();
    // The results, after the pins.
    const list = page.slice(page.indexOf('id="list-heading"'));
    expect(list).toContain(`href="/newsroom/stories/${STORY}"`);
    expect(list).not.toContain(`href="/newsroom/stories/${OTHER}"`);
    expect(list).toContain(">1 story</h2>");
    // The row has the story's picture (the site's own default here) and its actions.
    const link = list.indexOf(`href="/newsroom/stories/${STORY}"`);
    const row = list.slice(list.lastIndexOf("<li", link), link);
    expect(row).toMatch(/<img[^>]+src="\/images\/default-article\.svg"/);
    for (const intent of ["take-down", "correct", "pin"]) {
      expect(list).toMatch(new RegExp(`<button[^>]+value="${intent}"`));
    }
    expect(list).toMatch(/View on site/);
  });

  it("runs a row's action from the list and comes back to the same search", async () => {
    const editor = await signedIn("editor@example.org");
    const pinned = await post(
      "/newsroom/stories",
      { _csrf: editor.csrf, intent: "pin", id: STORY, hours: "6", q: "board", page: "1" },
      editor.cookie,
    );
    expect(pinned.status).toBe(303);
    expect(pinned.headers.get("location")).toBe("/newsroom/stories?q=board&done=pin");
    const refused = await post(
      "/newsroom/stories",
      { _csrf: editor.csrf, intent: "take-down", id: STORY, reason: "", q: "board" },
      editor.cookie,
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Say why the story comes down.");
    const unpinned = await post(
      "/newsroom/stories",
      { _csrf: editor.csrf, intent: "unpin", id: STORY },
      editor.cookie,
    );
    expect(unpinned.headers.get("location")).toBe("/newsroom/stories?done=unpin");
    expect(
      (
        await post(
          "/newsroom/stories",
          { _csrf: editor.csrf, intent: "headline", id: STORY, headline: "Not from the list" },
          editor.cookie,
        )
      ).status,
    ).toBe(400);
  });

  it("answers a NUL in a search, an id or a form as text, never with an error", async () => {
    const editor = await signedIn("editor@example.org");
    const errorsBefore = logLines.filter((l) => l.level >= ERROR_LEVEL).length;
    const search = await get("/newsroom/stories?q=a%00", editor.cookie);
    expect(search.status).toBe(200);
    const found = await get("/newsroom/stories?q=board%00", editor.cookie);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain(`href="/newsroom/stories/${STORY}"`);
    for (const address of ["/newsroom/stories/harbor%00", `/newsroom/stories/${STORY}%00`]) {
      const status = (await get(address, editor.cookie)).status;
      expect(status, address).toBeGreaterThanOrEqual(400);
      expect(status, address).toBeLessThan(500);
    }
    const action = await post(
      "/newsroom/stories",
      { _csrf: editor.csrf, intent: "take-down", id: `${STORY}\u0000`, reason: "Legal request" },
      editor.cookie,
    );
    expect(action.status).toBe(400);
    expect(await action.text()).toContain("There is no story with that id.");
    const reason = await post(
      "/newsroom/stories",
      { _csrf: editor.csrf, intent: "correct", id: STORY, correction: "\u0000".repeat(20) },
      editor.cookie,
    );
    expect(reason.status).toBe(400);
    expect(logLines.filter((l) => l.level >= ERROR_LEVEL).length).toBe(errorsBefore);
  });

  it("links to the story on the site by an address that changes with it", async () => {
    const editor = await signedIn("editor@example.org");
    const first = await viewOnSite(editor.cookie);
    expect(first).toMatch(new RegExp(`^/article/${STORY}\\?v=\\d+$`));
    const list = await (await get("/newsroom/stories?q=board", editor.cookie)).text();
    expect(list.replaceAll("&amp;", "&")).toContain(`href="${first}"`);

    // The page cache keys on the whole address; the page's canonical address has no query.
    const plain = await publicPage(`/article/${STORY}`);
    expect(plain.cache).toBe("HIT");
    const opened = await get(first);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("x-cache")).toBe("MISS");
    const body = await opened.text();
    expect(body).toMatch(new RegExp(`<link rel="canonical" href="[^"?]*/article/${STORY}"`));
    expect((await get(first)).headers.get("x-cache")).toBe("HIT");

    const corrected = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "correct", correction: "The vote is at 6 p.m., not 5 p.m." },
      editor.cookie,
    );
    expect(corrected.status).toBe(303);
    const second = await viewOnSite(editor.cookie);
    expect(second).not.toBe(first);
    expect(await (await get(second)).text()).toContain("The vote is at 6 p.m., not 5 p.m.");

    await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "take-down", reason: "Checking a fact" },
      editor.cookie,
    );
    const down = await (await get(`/newsroom/stories/${STORY}`, editor.cookie)).text();
    expect(down).not.toContain("View on site");
    await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "restore" },
      editor.cookie,
    );
    const third = await viewOnSite(editor.cookie);
    expect([first, second]).not.toContain(third);
  });

  it("rewords and retracts a correction: gone from the story, /corrections and its feed", async () => {
    const editor = await signedIn("editor@example.org");
    const text = "The budget is $4 million, not $40 million.";
    await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "correct", correction: text },
      editor.cookie,
    );
    const page = await (await get(`/newsroom/stories/${STORY}`, editor.cookie)).text();
    const form = page.slice(page.indexOf("$4 million"));
    const id = /name="correction-id" value="(\d+)"/.exec(form)?.[1];
    expect(id).toBeDefined();
    const reworded = "The budget is $4.2 million, not $40 million.";
    const edited = await post(
      `/newsroom/stories/${STORY}`,
      {
        _csrf: editor.csrf,
        intent: "correction-edit",
        "correction-id": id ?? "",
        correction: reworded,
      },
      editor.cookie,
    );
    expect(edited.headers.get("location")).toBe(`/newsroom/stories/${STORY}?done=correction-edit`);
    const article = (await publicPage(`/article/${STORY}`)).body;
    expect(article).toContain("4.2 million");
    expect(article).not.toContain("$4 million");

    const retracted = await post(
      `/newsroom/stories/${STORY}`,
      { _csrf: editor.csrf, intent: "correction-retract", "correction-id": id ?? "" },
      editor.cookie,
    );
    expect(retracted.headers.get("location")).toBe(
      `/newsroom/stories/${STORY}?done=correction-retract`,
    );
    for (const address of [`/article/${STORY}`, "/corrections", "/corrections/rss.xml"]) {
      const shown = await publicPage(address);
      expect(shown.status, address).toBe(200);
      expect(shown.body, address).not.toContain("4.2 million");
    }
    const staffView = await (await get(`/newsroom/stories/${STORY}`, editor.cookie)).text();
    expect(staffView.slice(staffView.indexOf(">Retracted<"))).toContain(reworded);
    const audit = await handle.db
      .select({ action: staffAudit.action })
      .from(staffAudit)
      .where(eq(staffAudit.subject, STORY))
      .orderBy(staffAudit.id);
    expect(audit.map((a) => a.action).slice(-2)).toEqual([
      "story.correction-edit",
      "story.correction-retract",
    ]);
  });
});

describe("newsroom addresses a hand or a tool could write", () => {
  it("reads values it cannot use as none, never as a server error", async () => {
    const { cookie } = await signedIn("chief@example.org");
    const errorsBefore = logLines.filter((line) => line.level >= ERROR_LEVEL).length;
    for (const address of [
      "/newsroom/stories?q=a%00b&page=1e400&category=%00&status=%00",
      "/newsroom/media?q=a%00b",
      // The media library's "older" start: once a 500 for anything but a stored id.
      "/newsroom/media?before=1e400",
      "/newsroom/media?before=99999999999999999999",
      "/newsroom/media?before=1.5",
      "/newsroom/media?before=-5",
      "/newsroom/audit?who=a%00b&kind=x%00&page=1e400",
      "/newsroom/posts?page=1e400&kind=%00",
      "/newsroom/inbox?page=1e400",
      "/newsroom/newsletter?page=99999999999999",
      "/newsroom/staff?member=1e400",
      "/newsroom/rules?n=1e400",
    ]) {
      expect((await get(address, cookie)).status, address).toBe(200);
    }
    for (const address of [
      "/newsroom/stories/a%00b",
      "/newsroom/posts/a%00b",
      "/newsroom/media/99999999999999999999",
    ]) {
      expect((await get(address, cookie)).status, address).toBe(404);
    }
    expect(logLines.filter((line) => line.level >= ERROR_LEVEL).length).toBe(errorsBefore);
  });
});
