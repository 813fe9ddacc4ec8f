import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { Window } from "happy-dom";
import { pino } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_POST_FIELDS, type PostFields } from "../../shared/post-fields";
import { parseConfig } from "../config";
import { loadContent } from "../content/load";
import { blogPosts, newsroomMedia, newsroomPosts } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { formLimiter } from "../forms/guard";
import type { LoadContext } from "../http/load-context";
import { folderPictureStore } from "../images/store";
import { inlinePictureMaker } from "../images/picture-maker";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { newsletterMailFor } from "../newsletter/signup";
import { newsroomOperations } from "../newsroom/operations";
import { sanitizeBody } from "../newsroom/post-body";
import { createHostedBlogSource } from "./hosted";
import { createLocalBlogSource } from "./local";
import { syncBlogIndex } from "./search-index";
import type { BlogSource } from "./source";
import { withNewsroomPosts } from "./with-newsroom";

/**
 * The blog's pages, its feed and its sitemap with the newsroom's own posts among the configured
 * source's: the route modules run through React Router's request handler (compiled by Vite, as in
 * development) over a real database.
 */

const SITE_URL = "https://news.example.org";
const HASH = "d".repeat(64);
const logger = pino({ level: "silent" });

let vite: ViteDevServer;
let handle: (request: Request, context: LoadContext) => Promise<Response>;
let context: Omit<LoadContext, "blog">;
let dispose: () => Promise<void>;
let api: FixtureServer;

beforeAll(async () => {
  vite = await createServer({
    appType: "custom",
    logLevel: "silent",
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const handler = createRequestHandler(
    () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    "development",
  );
  handle = (request, loadContext) => handler(request, loadContext);
  const [pglite] = testDatabases();
  if (!pglite) throw new Error("no test database");
  const database = await pglite.open();
  await database.migrate();
  dispose = database.dispose;
  const config = parseConfig({ SITE_URL });
  const mail = newsletterMailFor(config, "Test site");
  context = {
    config,
    db: database.db,
    announceChange: () => database.announceChange(),
    logger,
    content: loadContent("content"),
    formLimiter: formLimiter(10),
    mail,
    operations: newsroomOperations({
      database,
      logger,
      pass: { siteUrl: SITE_URL, siteName: "Test site", sources: [], concurrency: 1 },
      mail,
    }),
    clientAddress: "127.0.0.1",
    requestId: "test-request",
    // Pages read no pictures here: a folder that is never written.
    pictures: folderPictureStore({ dir: "/nonexistent/pictures", maxBytes: 1 }),
    pictureMaker: inlinePictureMaker(),
  };
  api = await startFixtureServer();
}, 60_000);

afterAll(async () => {
  await vite?.close();
  await dispose?.();
  await api?.close();
});

beforeEach(async () => {
  await context.db.delete(newsroomPosts);
  await context.db.delete(newsroomMedia);
  await context.db.delete(blogPosts);
});

const samples = createLocalBlogSource(path.resolve("content/blog"), {
  siteUrl: SITE_URL,
  logger,
});
const blogWith = (source: BlogSource) => withNewsroomPosts(context.db, source, { logger });

/** The answer to `url` with `blog` in the load context. */
function request(url: string, blog: BlogSource) {
  return handle(new Request(`${SITE_URL}${url}`), { ...context, blog });
}

async function render(url: string, blog: BlogSource) {
  const response = await request(url, blog);
  const window = new Window();
  window.document.write(await response.text());
  const { document } = window;
  const main = document.querySelector("main");
  if (!main) throw new Error(`no <main> in ${url}`);
  return { status: response.status, document, main, text: main.textContent.replace(/\s+/g, " ") };
}

const POST: PostFields = {
  ...EMPTY_POST_FIELDS,
  title: "Harbor Lights, Block by Block",
  description: "Where to watch the boat parade, and when.",
  bodyHtml:
    "<p>The parade starts at Shelter Island.</p>" +
    '<p><a href="https://www.youtube.com/watch?v=Pa7rAde_x1Y" target="_blank" rel="noopener noreferrer">Last year\'s parade</a></p>' +
    "<p>Bring a jacket.</p>",
  bylines: ["Ana Ruiz", "Sam Lee"],
  pictureAlt: "Boats lit up on the bay",
  pictureCredit: "Ana Ruiz / Ledger",
  videoUrl: "https://youtu.be/Cc4Agenda_9",
  shortTailKeywords: "harbor, parade",
  longTailKeywords: "boat parade route, Harbor",
};

/** The newsroom's post, published (as server/newsroom/posts.ts leaves it), with its upload. */
async function publishOurs(
  slug = "harbor-lights",
  at = new Date("2030-12-01T18:00:00Z"),
  fields: Partial<PostFields> = {},
) {
  const [media] = await context.db
    .insert(newsroomMedia)
    .values({
      hash: HASH,
      width: 2000,
      height: 1500,
      color: "#336699",
      focusX: 30,
      focusY: 70,
      bytes: 1000,
      uploadedBy: "writer@example.org",
    })
    .returning({ id: newsroomMedia.id });
  const live = { ...POST, ...fields, mediaId: media?.id ?? null };
  await context.db.insert(newsroomPosts).values({
    kind: "blog",
    draft: live,
    live,
    status: "published",
    slug,
    firstPublishedAt: at,
    createdBy: "writer@example.org",
    updatedBy: "writer@example.org",
  });
}

describe("/blog", () => {
  it("lists the newsroom's post among the source's, drawn from our copies, and links the feed", async () => {
    await publishOurs();
    const page = await render("/blog", blogWith(samples));
    expect(page.status).toBe(200);
    const links = [...page.main.querySelectorAll("article h2 a")].map((a) =>
      a.getAttribute("href"),
    );
    expect(links[0]).toBe("/blog/harbor-lights");
    expect(links[1]).toBe("/blog/how-our-newsroom-picks-stories");
    expect(links).toHaveLength(10);
    // Thirteen sample posts and ours: two pages.
    expect(page.main.querySelector('nav a[href="/blog?page=2"]')).not.toBeNull();
    const img = page.main.querySelector("article picture img");
    expect(img?.getAttribute("src")).toBe(`/images/${HASH}/160.jpg`);
    expect(img?.getAttribute("alt")).toBe(POST.title);
    const feed = page.document.querySelector('head link[rel="alternate"][href="/blog/rss.xml"]');
    expect(feed?.getAttribute("type")).toBe("application/rss+xml");
    expect(page.main.querySelector('[role="status"]')).toBeNull();
  });

  it("with a failing source, lists the newsroom's posts and says the rest could not be loaded", async () => {
    api.route("/down/get_metainfo", (_req, res) => res.writeHead(500).end());
    const down = createHostedBlogSource({
      apiUrl: api.url("/down"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    const empty = await render("/blog", blogWith(down));
    expect(empty.status).toBe(503);
    expect(empty.text).toContain("Error loading blogs: Failed to fetch blogs");

    await publishOurs();
    const page = await render("/blog", blogWith(down));
    expect(page.status).toBe(200);
    expect(page.main.querySelector('[role="status"]')?.textContent).toBe(
      "Some posts could not be loaded: Failed to fetch blogs. Please try again later.",
    );
    expect(
      [...page.main.querySelectorAll("article h2 a")].map((a) => a.getAttribute("href")),
    ).toEqual(["/blog/harbor-lights"]);
    expect((await render("/blog?page=2", blogWith(down))).status).toBe(503);
  });
});

describe("/blog/:slug, a newsroom post", () => {
  it("draws the uploads in its body as our responsive pictures, in every width and format", async () => {
    await publishOurs("harbor-pictures", undefined, {
      bodyHtml: sanitizeBody(
        "<p>The boats line up at dusk.</p>" +
          `<figure><img src="${SITE_URL}/images/${HASH}/1200.jpg" alt="Boats at the dock"></figure>`,
        "html",
        SITE_URL,
      ),
    });
    const { main } = await render("/blog/harbor-pictures", blogWith(samples));
    const picture = main.querySelector(".article-body picture");
    expect(picture?.querySelector("img")?.getAttribute("alt")).toBe("Boats at the dock");
    expect(picture?.querySelector("img")?.getAttribute("width")).toBe("2000");
    expect(picture?.querySelector('source[type="image/avif"]')?.getAttribute("srcset")).toMatch(
      new RegExp(`/images/${HASH}/\\d+\\.avif \\d+w, `),
    );
  });

  it("shows the spec's layout: picture with alt and credit, date, byline, description, body with its video, video, topics", async () => {
    await publishOurs();
    const page = await render("/blog/harbor-lights", blogWith(samples));
    expect(page.status).toBe(200);
    const { main, document } = page;
    expect(main.querySelector("a")?.textContent).toContain("Back to Blog");
    const img = main.querySelector("figure picture img");
    expect(img?.getAttribute("alt")).toBe("Boats lit up on the bay");
    // A 16:9 box, cut around the upload's focal point.
    expect(img?.getAttribute("src")).toBe(`/images/${HASH}/wide-f30x70-720.jpg`);
    expect(img?.getAttribute("fetchpriority")).toBe("high");
    expect(main.querySelector("figcaption")?.textContent).toBe("Photo: Ana Ruiz / Ledger");
    expect(page.text).not.toContain("View on Pinterest");
    expect(main.querySelector("h1")?.textContent).toBe(POST.title);
    expect(main.querySelector("time")?.textContent).toBe("December 1, 2030");
    expect(page.text).toContain("By Ana Ruiz and Sam Lee");
    expect(page.text).toContain(POST.description);

    const body = main.querySelector(".article-body");
    expect([...(body?.querySelectorAll("p") ?? [])].map((p) => p.textContent)).toEqual([
      "The parade starts at Shelter Island.",
      "Bring a jacket.",
    ]);
    const inBody = body?.querySelector('[data-video-state="ready"] a');
    expect(inBody?.getAttribute("href")).toBe("https://www.youtube.com/watch?v=Pa7rAde_x1Y");
    expect(inBody?.textContent).toContain("Play video: Last year's parade");

    const video = main.querySelector('[aria-labelledby="blog-video"]');
    expect(video?.querySelector("h2")?.textContent).toBe("Watch the Video");
    expect(
      video?.querySelector('a[href="https://www.youtube.com/watch?v=Cc4Agenda_9"]'),
    ).not.toBeNull();
    expect(
      [...main.querySelectorAll('[aria-labelledby="blog-topics"] li')].map((li) => li.textContent),
    ).toEqual(["harbor", "parade", "boat parade route"]);

    expect(document.querySelector('meta[property="og:image"]')?.getAttribute("content")).toBe(
      `${SITE_URL}/images/${HASH}/og-f30x70.jpg`,
    );
    const ld = [...document.querySelectorAll('script[type="application/ld+json"]')]
      .map((s) => s.textContent)
      .join("");
    expect(ld).toContain('"keywords":"harbor, parade, boat parade route"');
    const posting = [...document.querySelectorAll('script[type="application/ld+json"]')]
      .flatMap((s) => (JSON.parse(s.textContent) as { "@graph": { "@type": string }[] })["@graph"])
      .find((node) => node["@type"] === "BlogPosting");
    expect(posting).toMatchObject({
      author: [
        { "@type": "Person", name: "Ana Ruiz" },
        { "@type": "Person", name: "Sam Lee" },
      ],
    });
  });

  it("a source post of the same slug stays behind the newsroom's", async () => {
    await publishOurs("balboa-park-on-a-budget");
    const page = await render("/blog/balboa-park-on-a-budget", blogWith(samples));
    expect(page.main.querySelector("h1")?.textContent).toBe(POST.title);
  });
});

describe("/blog/rss.xml", () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });

  async function feed(blog: BlogSource) {
    const response = await request("/blog/rss.xml", blog);
    const body = await response.text();
    return { response, body };
  }

  it("is valid RSS of the merged blog's newest posts, ours first", async () => {
    await publishOurs();
    const { response, body } = await feed(blogWith(samples));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(XMLValidator.validate(body)).toBe(true);
    const channel = (
      parser.parse(body) as {
        rss: { channel: { title: string; link: string; item: Record<string, unknown>[] } };
      }
    ).rss.channel;
    expect(channel.title).toBe(`${context.content.site.name}: Blog`);
    expect(channel.link).toBe(`${SITE_URL}/blog`);
    expect(body).toContain(`<atom:link href="${SITE_URL}/blog/rss.xml" rel="self"`);
    // Thirteen samples and ours, under the feed's twenty.
    expect(channel.item).toHaveLength(14);
    expect(channel.item[0]).toMatchObject({
      title: POST.title,
      link: `${SITE_URL}/blog/harbor-lights`,
      pubDate: "Sun, 01 Dec 2030 18:00:00 GMT",
      description: POST.description,
      "media:content": {
        "@url": `${SITE_URL}/images/${HASH}/16x9-f30x70.jpg`,
        "@width": "1200",
        "@height": "675",
      },
    });
    expect(channel.item[1]).toMatchObject({
      link: `${SITE_URL}/blog/how-our-newsroom-picks-stories`,
      "media:content": { "@url": `${SITE_URL}/images/sample/newspaper.svg` },
    });
  });

  it("holds at most twenty posts", async () => {
    for (let i = 0; i < 10; i++) {
      await context.db.insert(newsroomPosts).values({
        kind: "blog",
        draft: POST,
        live: { ...POST, title: `Ours ${i}` },
        status: "published",
        slug: `ours-${i}`,
        firstPublishedAt: new Date(Date.UTC(2030, 0, i + 1)),
        createdBy: "writer@example.org",
        updatedBy: "writer@example.org",
      });
    }
    const { body } = await feed(blogWith(samples));
    expect(body.match(/<item>/g)).toHaveLength(20);
    expect(body).toContain(`<link>${SITE_URL}/blog/ours-9</link>`);
  });

  it("a blog that cannot be read answers 503", async () => {
    api.route("/feed-down/get_metainfo", (_req, res) => res.writeHead(500).end());
    const down = createHostedBlogSource({
      apiUrl: api.url("/feed-down"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    expect((await feed(blogWith(down))).response.status).toBe(503);
  });
});

describe("/sitemaps/blog.xml", () => {
  it("lists the newsroom's posts and the source's, as the search copy holds them", async () => {
    await publishOurs();
    await syncBlogIndex(context.db, blogWith(samples));
    const response = await request("/sitemaps/blog.xml", blogWith(samples));
    const body = await response.text();
    expect(XMLValidator.validate(body)).toBe(true);
    expect(body).toContain(`<loc>${SITE_URL}/blog/harbor-lights</loc>`);
    expect(body).toContain(`<loc>${SITE_URL}/blog/balboa-park-on-a-budget</loc>`);
    expect(body.match(/<url>/g)).toHaveLength(14);
  });
});
