import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import { OWN_STORY_LABEL } from "../../shared/article";
import { loadContent } from "../content/load";
import { newsroomMedia, staff } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { renderDigest } from "../newsletter/digest";
import { sanitizeBody } from "../newsroom/post-body";
import { createPost, publishPost, saveDraft } from "../newsroom/posts";
import { postById } from "../newsroom/post-reads";
import { upsertArticle } from "./repository";

/**
 * A story the newsroom published, read through the production build as readers, feed readers,
 * search engines and the newsletter see it: everywhere a feed story is, marked as our own, whole,
 * with its bylines, its picture's words and its pictures drawn from our own copies.
 */

const SITE_URL = "https://news.example.org";
const SITE_NAME = loadContent("content").site.name;
const TOP = "a".repeat(64);
const INSIDE = "b".repeat(64);
const GONE = "d".repeat(64);
const VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
/** The own stories' article ids: with bylines (Local News), and without (Business). */
let reported = "";
let unsigned = "";

const FEED_STORY = "harbor-cranes-arrive-0123456789abcdef";

const story: PostFields = {
  ...EMPTY_POST_FIELDS,
  title: "Harbor pilots train for the new cranes",
  dek: "Six weeks of night drills before the first ship docks.",
  description: "How the harbor's pilots get ready for the new cranes.",
  bodyHtml: sanitizeBody(
    [
      "<p>The first paragraph of our reporting.</p>",
      `<figure><img src="${SITE_URL}/images/${INSIDE}/1200.jpg" alt="A crane at dusk"></figure>`,
      `<p><img src="${SITE_URL}/images/${GONE}/800.webp" alt="Deleted from the library"></p>`,
      `<p><a href="${VIDEO}">${VIDEO}</a></p>`,
      "<p>The last paragraph, which a feed story would not show.</p>",
    ].join(""),
    "html",
    SITE_URL,
  ),
  category: "local-news",
  bylines: ["Ana Ruiz", "Sam Lee", "Kim Park"],
  pictureAlt: "Two pilots on the crane deck at night",
};

async function upload(hash: string) {
  const [row] = await handle.db
    .insert(newsroomMedia)
    .values({
      hash,
      width: 2400,
      height: 1600,
      color: "#334455",
      focusX: 30,
      focusY: 40,
      bytes: 1000,
      uploadedBy: "writer@example.org",
    })
    .returning({ id: newsroomMedia.id });
  if (!row) throw new Error("the upload was not saved");
  return row.id;
}

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  const services = {
    db: handle.db,
    announceChange: () => handle.announceChange(),
    siteUrl: SITE_URL,
  };
  const [writer] = await handle.db
    .insert(staff)
    .values({ email: "writer@example.org", role: "editor", passwordHash: "x" })
    .returning();
  if (!writer) throw new Error("no staff row");
  const editor = { id: writer.id, email: writer.email };
  const now = Date.now();
  await upsertArticle(handle.db, {
    id: FEED_STORY,
    category: "local-news",
    link: "https://sample.example.org/harbor-cranes",
    title: "Harbor cranes arrive by barge",
    excerpt: "The cranes came in overnight.",
    content: "<p>The cranes came in overnight.</p>",
    author: "Feed Writer",
    publishedAt: new Date(now - 3 * 3600_000),
  });
  const publish = async (fields: PostFields) => {
    const id = await createPost(services, editor, "story");
    expect(await saveDraft(services, editor, id, { fields, slug: "" })).toMatchObject({ ok: true });
    expect(await publishPost(services, editor, id, null)).toMatchObject({ ok: true });
    return (await postById(handle.db, id))?.articleId ?? "";
  };
  const mediaId = await upload(TOP);
  await upload(INSIDE);
  reported = await publish({ ...story, mediaId });
  unsigned = await publish({
    ...EMPTY_POST_FIELDS,
    title: "Shipyard opens its books",
    dek: "",
    description: "What the shipyard earned.",
    bodyHtml: "<p>The shipyard's accounts, line by line.</p>",
    category: "business",
    mediaId,
    pictureAlt: "The shipyard's gate",
    pictureCredit: "Jo Doe",
  });
  app = await startTestApp(handle, { SITE_URL });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

async function page(route: string) {
  const response = await fetch(`${app.base}${route}`);
  expect(response.status, route).toBe(200);
  const window = new Window();
  window.document.write(await response.text());
  return window.document;
}

const text = (node: { textContent: string | null } | null) =>
  (node?.textContent ?? "").replace(/\s+/g, " ").trim();

/** The cards of a page whose headline is `title`. */
function cardsTitled(document: Awaited<ReturnType<typeof page>>, title: string) {
  return Array.from(document.querySelectorAll("article")).filter(
    (card) => text(card.querySelector("h3")) === title,
  );
}

/** The page's NewsArticle node. */
function newsArticleOf(document: Awaited<ReturnType<typeof page>>): Record<string, unknown> {
  const graph = Array.from(document.querySelectorAll('script[type="application/ld+json"]')).flatMap(
    (s) => (JSON.parse(s.textContent ?? "{}") as { "@graph": Record<string, unknown>[] })["@graph"],
  );
  const node = graph.find((n) => n["@type"] === "NewsArticle");
  if (!node) throw new Error("no NewsArticle");
  return node;
}

describe("an own story's page", () => {
  it("shows its dek, bylines, label, picture words and whole body, without the outlet's link", async () => {
    const document = await page(`/article/${reported}`);
    const article = document.querySelector("main article") ?? document.querySelector("article");
    expect(text(article?.querySelector("h1") ?? null)).toBe(story.title);
    expect(text(article)).toContain(story.dek);
    expect(text(article)).toContain("By Ana Ruiz, Sam Lee and Kim Park");
    expect(text(article?.querySelector("p") ?? null)).toContain(OWN_STORY_LABEL);
    const hero = article?.querySelector("figure img");
    expect(hero?.getAttribute("alt")).toBe(story.pictureAlt);
    expect(text(article?.querySelector("figcaption") ?? null)).toBe(`Photo: ${SITE_NAME}`);
    expect(text(article)).toContain("The first paragraph of our reporting.");
    expect(text(article)).toContain("The last paragraph, which a feed story would not show.");
    expect(text(article)).not.toContain("Read the full story at");
  });

  it("draws the body's uploads as our responsive pictures and leaves out one not in the library", async () => {
    const document = await page(`/article/${reported}`);
    const body = document.querySelector(".article-body");
    const picture = body?.querySelector("picture");
    expect(picture?.querySelector("img")?.getAttribute("alt")).toBe("A crane at dusk");
    expect(picture?.querySelector('source[type="image/avif"]')?.getAttribute("srcset")).toContain(
      `/images/${INSIDE}/`,
    );
    expect(picture?.querySelector("img")?.getAttribute("width")).toBe("2400");
    expect(body?.innerHTML).not.toContain(GONE);
    expect(body?.querySelectorAll("img")).toHaveLength(1);
  });

  it("draws a video link on a line of its own as a player that plays in place, with no script", async () => {
    const document = await page(`/article/${reported}`);
    const body = document.querySelector(".article-body");
    expect(body?.querySelector(`a[href="${VIDEO}"]`)).toBeNull();
    const frame = body?.querySelector('[data-video-state="ready"] iframe');
    expect(frame?.getAttribute("title")).toBe("Video: YouTube video");
    const poster = new Window().document;
    poster.write(frame?.getAttribute("srcdoc") ?? "");
    expect(poster.querySelector("a")?.getAttribute("href")).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&controls=1&autoplay=1",
    );
    expect(poster.querySelectorAll("script")).toHaveLength(0);
  });

  it("names each byline as a Person, the site as publisher, and our crops as its images", async () => {
    const node = newsArticleOf(await page(`/article/${reported}`));
    expect(node.author).toEqual([
      { "@type": "Person", name: "Ana Ruiz" },
      { "@type": "Person", name: "Sam Lee" },
      { "@type": "Person", name: "Kim Park" },
    ]);
    expect(node.publisher).toEqual({ "@id": `${SITE_URL}/#organization` });
    expect(node).not.toHaveProperty("isBasedOn");
    expect(node.image).toEqual(
      ["16x9", "4x3", "1x1"].map((crop) => `${SITE_URL}/images/${TOP}/${crop}-f30x40.jpg`),
    );
  });

  it("without bylines is the publication's, and credits the photographer it names", async () => {
    const document = await page(`/article/${unsigned}`);
    expect(newsArticleOf(document).author).toEqual({ "@id": `${SITE_URL}/#organization` });
    expect(text(document.querySelector("figcaption"))).toBe("Photo: Jo Doe");
    expect(text(document.querySelector("article"))).toContain("By Staff");
  });

  it("leaves a feed story's page as it was, with the own story marked among its related", async () => {
    const document = await page(`/article/${FEED_STORY}`);
    const article = document.querySelector("article");
    expect(text(article?.querySelector("p") ?? null)).not.toContain(OWN_STORY_LABEL);
    expect(text(article)).toContain("Read the full story at sample.example.org");
    expect(text(article?.querySelector("figcaption") ?? null)).toBe("Photo: sample.example.org");
    expect(newsArticleOf(document)).toMatchObject({
      author: { "@type": "Person", name: "Feed Writer" },
      isBasedOn: "https://sample.example.org/harbor-cranes",
    });
    const related = document.querySelector('section[aria-labelledby="related-heading"]');
    const [card] = Array.from(related?.querySelectorAll("article") ?? []);
    expect(text(card?.querySelector("h3") ?? null)).toBe(story.title);
    expect(text(card ?? null)).toContain(OWN_STORY_LABEL);
  });
});

describe("an own story in lists", () => {
  it.each(["/", "/local-news"])(
    "%s shows its card, labelled, and feed cards without",
    async (route) => {
      const document = await page(route);
      const own = cardsTitled(document, story.title);
      expect(own.length).toBeGreaterThan(0);
      for (const card of own) expect(text(card)).toContain(OWN_STORY_LABEL);
      for (const card of own) expect(text(card)).toContain("By Ana Ruiz, Sam Lee and Kim Park");
      const feed = cardsTitled(document, "Harbor cranes arrive by barge");
      expect(feed.length).toBeGreaterThan(0);
      for (const card of feed) expect(text(card)).not.toContain(OWN_STORY_LABEL);
    },
  );

  it("is found by search, labelled, and feed stories found with it are not", async () => {
    const document = await page("/search?q=pilots OR cranes");
    const results = Array.from(document.querySelectorAll("main article"));
    const own = results.filter((r) => r.querySelector(`a[href="/article/${reported}"]`));
    expect(own).toHaveLength(1);
    expect(text(own[0]?.querySelector("p") ?? null)).toBe(`Local News · ${OWN_STORY_LABEL}`);
    const feed = results.filter((r) => r.querySelector(`a[href="/article/${FEED_STORY}"]`));
    expect(feed).toHaveLength(1);
    expect(text(feed[0] ?? null)).not.toContain(OWN_STORY_LABEL);
  });

  it("is labelled on its slide of the home page's slider", async () => {
    const document = await page("/");
    const slides = Array.from(document.querySelectorAll('[aria-roledescription="slide"]'));
    const own = slides.filter((s) => text(s.querySelector("h2")) === story.title);
    expect(own).toHaveLength(1);
    expect(text(own[0] ?? null)).toContain(OWN_STORY_LABEL);
    const others = slides.filter((s) => text(s.querySelector("h2")) !== story.title);
    expect(others.length).toBeGreaterThan(0);
    for (const slide of others) expect(text(slide)).not.toContain(OWN_STORY_LABEL);
  });
});

describe("an own story for feed readers, search engines and the newsletter", () => {
  it("is an item of the RSS feeds, linking to our page, by its bylines", async () => {
    for (const route of ["/rss.xml", "/local-news/rss.xml"]) {
      const xml = await (await fetch(`${app.base}${route}`)).text();
      const item = xml.split("<item>").find((i) => i.includes(story.title));
      expect(item, route).toBeDefined();
      expect(item).toContain(`<link>${SITE_URL}/article/${reported}</link>`);
      expect(item).toContain("<dc:creator>Ana Ruiz, Sam Lee and Kim Park</dc:creator>");
      expect(item).toContain(`<description>${story.dek}</description>`);
      expect(item).toContain(`${SITE_URL}/images/${TOP}/16x9`);
    }
  });

  it("is listed in the article sitemap and the news sitemap", async () => {
    const sitemap = await (
      await fetch(`${app.base}/sitemaps/articles-${new Date().toISOString().slice(0, 7)}.xml`)
    ).text();
    expect(sitemap).toContain(`<loc>${SITE_URL}/article/${reported}</loc>`);
    const news = await (await fetch(`${app.base}/news-sitemap.xml`)).text();
    expect(news).toContain(`<loc>${SITE_URL}/article/${reported}</loc>`);
    expect(news).toContain(`<news:title>${story.title}</news:title>`);
  });

  it("is in the newsletter digest as other stories are", async () => {
    const digest = await renderDigest(
      handle.db,
      { siteName: SITE_NAME, siteUrl: SITE_URL, from: "news@example.org" },
      new Date(),
    );
    expect(digest?.html).toContain(`${SITE_URL}/article/${reported}`);
    expect(digest?.html).toContain(story.title);
    expect(digest?.html).toContain(`${SITE_URL}/images/${TOP}/640.jpg`);
    expect(digest?.text).toContain(story.title);
    expect(digest?.html).toContain("Harbor cranes arrive by barge");
  });
});
