import { folderPictureStore } from "../images/store";
import { inlinePictureMaker } from "../images/picture-maker";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Window } from "happy-dom";
import { pino } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { loadContent } from "../content/load";
import { testDatabases } from "../db/test-databases";
import { pictures } from "../db/schema";
import { formLimiter } from "../forms/guard";
import type { LoadContext } from "../http/load-context";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { createHostedBlogSource } from "./hosted";
import { createLocalBlogSource } from "./local";
import type { BlogSource } from "./source";
import { newsletterMailFor } from "../newsletter/signup";
import { newsroomOperations } from "../newsroom/operations";

/**
 * The blog pages as the server renders them: the route modules run through React Router's request
 * handler (compiled by Vite, as in development) with a real blog source in the load context.
 */

const SITE_URL = "https://news.example.org";
const logger = pino({ level: "silent" });

let vite: ViteDevServer;
let handle: (request: Request, context: LoadContext) => Promise<Response>;
let baseContext: Omit<LoadContext, "blog">;
let dispose: () => Promise<void>;
let api: FixtureServer;
const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-blog-empty-"));

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
  handle = (request, context) => handler(request, context);
  const [pglite] = testDatabases();
  if (!pglite) throw new Error("no test database");
  const database = await pglite.open();
  // The blog's pictures are read from the picture pass's table.
  await database.migrate();
  dispose = database.dispose;
  baseContext = {
    config: parseConfig({ SITE_URL }),
    db: database.db,
    announceChange: () => database.announceChange(),
    logger,
    content: loadContent("content"),
    formLimiter: formLimiter(10),
    // Only pages are rendered here: nothing is ever sent.
    mail: newsletterMailFor(parseConfig({ SITE_URL }), "Test site"),
    // Nothing here starts a pass or a digest.
    operations: newsroomOperations({
      database,
      logger,
      pass: { siteUrl: SITE_URL, siteName: "Test site", sources: [], concurrency: 1 },
      mail: newsletterMailFor(parseConfig({ SITE_URL }), "Test site"),
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
  fs.rmSync(emptyDir, { recursive: true, force: true });
});

const local = createLocalBlogSource(path.resolve("content/blog"), { siteUrl: SITE_URL, logger });

/** The page at `url` rendered with `blog`: its status and its document. */
async function render(url: string, blog: BlogSource = local) {
  const response = await handle(new Request(`${SITE_URL}${url}`), { ...baseContext, blog });
  const window = new Window();
  window.document.write(await response.text());
  const document = window.document;
  const main = document.querySelector("main");
  if (!main) throw new Error(`no <main> in ${url}`);
  return {
    status: response.status,
    document,
    main,
    text: (main.textContent ?? "").replace(/\s+/g, " "),
    links: (selector: string) =>
      Array.from(main.querySelectorAll(selector)).map((a) => a.getAttribute("href")),
  };
}

describe("/blog", () => {
  it("page 1: heading, ten posts, pagination with Previous disabled", async () => {
    const page = await render("/blog");
    expect(page.status).toBe(200);
    expect(page.main.querySelector("h1")?.textContent).toBe("Blog");
    expect(page.document.title).toBe(`Blog | ${baseContext.content.site.name}`);
    expect(page.links("article h2 a")).toEqual([
      "/blog/how-our-newsroom-picks-stories",
      "/blog/ev-charging-around-san-diego-county",
      "/blog/balboa-park-on-a-budget",
      "/blog/voting-in-san-diego-county",
      "/blog/hiking-cowles-mountain-safely",
      "/blog/san-diego-beach-water-quality",
      "/blog/fire-season-preparedness-san-diego",
      "/blog/san-diego-farmers-markets-by-day",
      "/blog/san-diego-trolley-and-transit-tips",
      "/blog/how-to-attend-a-san-diego-city-council-meeting",
    ]);
    // A post with an image shows it round, lazy, sized and described; one without shows none.
    const first = page.main.querySelector("article");
    const image = first?.querySelector("img");
    expect(image?.getAttribute("src")).toBe("/images/sample/newspaper.svg");
    expect(image?.getAttribute("alt")).toBe("How Our Newsroom Picks Stories and How You Can Help");
    expect(image?.getAttribute("loading")).toBe("lazy");
    expect(image?.getAttribute("width")).toBe("96");
    expect(image?.className).toContain("rounded-full");
    expect(first?.textContent).toContain("A look at how our independent San Diego newsroom");
    const voting = page.main.querySelectorAll("article")[3];
    expect(voting?.querySelector("img")).toBeNull();

    const nav = page.main.querySelector('nav[aria-label="Blog pages"]');
    expect(nav).not.toBeNull();
    const items = Array.from(nav?.querySelectorAll("li > *") ?? []).map((el) => ({
      tag: el.tagName.toLowerCase(),
      text: el.textContent,
      href: el.getAttribute("href"),
      disabled: el.getAttribute("aria-disabled"),
      current: el.getAttribute("aria-current"),
    }));
    expect(items).toEqual([
      { tag: "span", text: "Previous", href: null, disabled: "true", current: null },
      { tag: "a", text: "1", href: "/blog", disabled: null, current: "page" },
      { tag: "a", text: "2", href: "/blog?page=2", disabled: null, current: null },
      { tag: "a", text: "Next", href: "/blog?page=2", disabled: null, current: null },
    ]);
  });

  it("page 2: the last three posts, Next disabled", async () => {
    const page = await render("/blog?page=2");
    expect(page.status).toBe(200);
    expect(page.links("article h2 a")).toEqual([
      "/blog/guide-to-san-diego-county-public-libraries",
      "/blog/how-to-read-your-sdge-bill",
      "/blog/best-tide-pools-in-san-diego",
    ]);
    const items = Array.from(page.main.querySelectorAll("nav li > *")).map((el) => [
      el.textContent,
      el.getAttribute("href"),
      el.getAttribute("aria-disabled") ?? el.getAttribute("aria-current"),
    ]);
    expect(items).toEqual([
      ["Previous", "/blog", null],
      ["1", "/blog", null],
      ["2", "/blog?page=2", "page"],
      ["Next", null, "true"],
    ]);
  });

  it.each(["/blog?page=3", "/blog?page=99", "/blog?page=0", "/blog?page=-1", "/blog?page=two"])(
    "%s is not found",
    async (url) => {
      const page = await render(url);
      expect(page.status).toBe(404);
      expect(page.text).toContain("Oops! This page of the blog does not exist.");
      expect(page.links("a")).toContain("/blog");
      expect(page.document.querySelector('meta[name="robots"]')?.getAttribute("content")).toContain(
        "noindex",
      );
    },
  );

  it("an empty blog shows the spec's text and no pagination; its page 2 is not found", async () => {
    const empty = createLocalBlogSource(emptyDir, { siteUrl: SITE_URL, logger });
    const page = await render("/blog", empty);
    expect(page.status).toBe(200);
    expect(page.text).toContain("No blog posts available at the moment.");
    expect(page.main.querySelector("nav")).toBeNull();
    expect((await render("/blog?page=2", empty)).status).toBe(404);
  });

  it("a failing source shows the spec's error and answers 503", async () => {
    api.route("/fail/get_metainfo", (_req, res) => res.writeHead(500).end());
    const hosted = createHostedBlogSource({
      apiUrl: api.url("/fail"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    const page = await render("/blog", hosted);
    expect(page.status).toBe(503);
    expect(page.main.querySelector('[role="alert"]')?.textContent).toContain(
      "Error loading blogs: Failed to fetch blogs",
    );
  });

  it("a failure that is not the source's own error shows An error occurred", async () => {
    const broken: BlogSource = {
      list: () => Promise.reject(new TypeError("internal detail")),
      get: () => Promise.reject(new TypeError("internal detail")),
    };
    const page = await render("/blog", broken);
    expect(page.status).toBe(503);
    expect(page.text).toContain("Error loading blogs: An error occurred");
    expect(page.text).not.toContain("internal detail");
    const post = await render("/blog/any", broken);
    expect(post.status).toBe(503);
    expect(post.text).toContain("Error loading blog: An error occurred");
  });

  it("a single page of posts shows no pagination", async () => {
    api.route("/one/get_metainfo", (_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ blogs: [{ slug: "only", metaTitle: "Only post" }], total: 1 })),
    );
    const hosted = createHostedBlogSource({
      apiUrl: api.url("/one"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    const page = await render("/blog", hosted);
    expect(page.links("article h2 a")).toEqual(["/blog/only"]);
    expect(page.main.querySelector("nav")).toBeNull();
  });
});

describe("/blog/:slug", () => {
  it("shows the post: back link, image, title, long date, byline, description, body, video, topics", async () => {
    const page = await render("/blog/how-to-attend-a-san-diego-city-council-meeting");
    expect(page.status).toBe(200);
    const { main } = page;
    expect(main.querySelector("a")?.textContent).toContain("Back to Blog");
    expect(main.querySelector("a")?.getAttribute("href")).toBe("/blog");
    expect(main.querySelector("figure img")?.getAttribute("src")).toBe(
      "/images/sample/city-hall.svg",
    );
    // A path on this site is on no Pinterest board.
    expect(page.text).not.toContain("View on Pinterest");
    expect(main.querySelector("h1")?.textContent).toBe(
      "How to Attend a San Diego City Council Meeting and Speak Up",
    );
    expect(main.querySelector("time")?.textContent).toBe("June 10, 2025");
    expect(page.text).toContain("By Tomás Herrera (sample)");
    expect(page.text).toContain("Find the agenda, watch online or attend in person");
    expect(main.querySelector(".article-body h2")?.textContent).toBe(
      "Find the schedule and the agenda",
    );
    expect(page.text).toContain("Watch the Video");
    expect(
      main.querySelector('a[href="https://www.youtube.com/watch?v=Cc4Agenda_9"]'),
    ).not.toBeNull();
    expect(
      Array.from(main.querySelectorAll('[aria-labelledby="blog-topics"] li')).map(
        (li) => li.textContent,
      ),
    ).toEqual(["city council", "public comment", "local government"]);
    expect(page.document.title).toBe(
      `How to Attend a San Diego City Council Meeting and Speak Up | ${baseContext.content.site.name}`,
    );
    expect(page.document.querySelector('meta[name="description"]')?.getAttribute("content")).toBe(
      "Find the agenda, watch online or attend in person, and make a public comment at a San Diego City Council meeting with this step-by-step guide for residents.",
    );
  });

  it("drops empty topics and shows no video block without a video", async () => {
    const page = await render("/blog/san-diego-beach-water-quality");
    expect(page.text).not.toContain("Watch the Video");
    expect(
      Array.from(page.main.querySelectorAll('[aria-labelledby="blog-topics"] li')).map(
        (li) => li.textContent,
      ),
    ).toEqual(["beaches", "water quality", "surf"]);
  });

  it("an unknown slug: Blog not found with Back to Blog, 404", async () => {
    const page = await render("/blog/unknown-slug");
    expect(page.status).toBe(404);
    expect(page.main.querySelector("h1")?.textContent).toBe("Error loading blog: Blog not found");
    // Back to Blog, and the page's house ad (app/lib/ad-plan.ts).
    expect(page.links("a")).toEqual(["/blog", "/newsletter"]);
  });

  it("a hosted post: sanitised body, View on Pinterest in a new tab; a failure answers 503", async () => {
    api.route("/hosted/get_details", (req, res) => {
      const slug = new URL(req.url ?? "/", "http://x").searchParams.get("slug");
      if (slug !== "pier") return res.writeHead(500).end();
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          data: {
            slug: "pier",
            metaTitle: "The Pier",
            metaDescription: "Fishing.",
            date: "2025-06-10",
            blog: '<p>Hello</p><script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2">',
            pinterestImageLink: "https://i.pinimg.example/pier.jpg",
            youtubeShortsUrl: "not a video",
            shortTailKeywords: "",
          },
        }),
      );
    });
    const hosted = createHostedBlogSource({
      apiUrl: api.url("/hosted"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    const page = await render("/blog/pier", hosted);
    expect(page.status).toBe(200);
    const pinterest = page.main.querySelector("figure a");
    expect(pinterest?.getAttribute("href")).toBe("https://i.pinimg.example/pier.jpg");
    expect(pinterest?.getAttribute("target")).toBe("_blank");
    expect(pinterest?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(pinterest?.textContent).toContain("View on Pinterest");
    // The body's picture, on our own origin but not in the site's picture folder, is left out
    // (server/images/body.ts); the event handler went with the sanitiser.
    expect(page.main.querySelector(".article-body")?.innerHTML).toBe("<p>Hello</p>");
    // A video link with no video id still builds the block (the spec), saying it is unavailable.
    expect(page.text).toContain("Watch the Video");
    expect(page.text).toContain("Video unavailable");
    expect(page.text).not.toContain("Topics");
    expect(page.text).not.toMatch(/By /);
    // Its picture is not kept yet: the default, never the other host's address.
    expect(page.main.querySelector("figure img")?.getAttribute("src")).toBe(
      "/images/default-article.svg",
    );

    const failed = await render("/blog/other", hosted);
    expect(failed.status).toBe(503);
    expect(failed.main.querySelector("h1")?.textContent).toBe(
      "Error loading blog: Failed to fetch blog details",
    );
    expect(failed.links("a")).toEqual(["/blog", "/newsletter"]);
  });

  it("a hosted post's picture kept by the picture pass is our copy, preloaded", async () => {
    const photo = "https://i.pinimg.example/kelp.jpg";
    const hash = "c".repeat(64);
    api.route("/hosted-kept/get_details", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          data: {
            slug: "kelp",
            metaTitle: "Kelp",
            metaDescription: "Forests.",
            date: "2025-06-10",
            blog: "<p>Hello</p>",
            pinterestImageLink: photo,
            youtubeShortsUrl: "",
            shortTailKeywords: "",
          },
        }),
      );
    });
    await baseContext.db.insert(pictures).values({
      url: photo,
      hash,
      picture: { kind: "stored", hash, width: 1600, height: 1067, color: "#204060" },
    });
    const hosted = createHostedBlogSource({
      apiUrl: api.url("/hosted-kept"),
      apiKey: "k",
      siteUrl: SITE_URL,
    });
    const page = await render("/blog/kelp", hosted);
    expect(page.status).toBe(200);
    const img = page.main.querySelector("figure picture img");
    // The post's picture is drawn in a 16:9 box: its copies are the photo's middle 16:9.
    expect(img?.getAttribute("src")).toBe(`/images/${hash}/wide-720.jpg`);
    expect([img?.getAttribute("width"), img?.getAttribute("height")]).toEqual(["1600", "900"]);
    expect(img?.getAttribute("fetchpriority")).toBe("high");
    const avif = page.main.querySelector('figure source[type="image/avif"]');
    const srcset = avif?.getAttribute("srcset") ?? "";
    // Copies up to twice the blog picture's widest drawing (768 px).
    expect(srcset).toBe(
      [160, 320, 480, 640, 720, 800, 960, 1200]
        .map((w) => `/images/${hash}/wide-${w}.avif ${w}w`)
        .join(", "),
    );
    const preload = page.document.querySelector('head link[rel="preload"][as="image"]');
    expect(preload?.getAttribute("imagesrcset")).toBe(srcset);
    expect(preload?.getAttribute("imagesizes")).toBe(avif?.getAttribute("sizes"));
    expect(preload?.getAttribute("type")).toBe("image/avif");
    expect(page.document.querySelector('meta[property="og:image"]')?.getAttribute("content")).toBe(
      `${SITE_URL}/images/${hash}/og.jpg`,
    );
    // No picture of the page names the blog's host; the Pinterest link still does.
    const named = [...page.document.querySelectorAll("img, source, link[as=image]")].map(
      (el) =>
        `${el.getAttribute("src")} ${el.getAttribute("srcset")} ${el.getAttribute("imagesrcset")}`,
    );
    expect(named.join(" ")).not.toContain("pinimg");
    expect(page.main.querySelector("figure a")?.getAttribute("href")).toBe(photo);
  });
});
