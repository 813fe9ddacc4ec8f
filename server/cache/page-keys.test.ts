import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlogSource } from "../blog/create-source";
import { parseConfig } from "../config";
import { loadContent } from "../content/load";
import { testDatabases } from "../db/test-databases";
import { formLimiter } from "../forms/guard";
import { FORM_BODY_LIMIT } from "../http/app";
import { pageHandler } from "../http/page-handler";
import { folderPictureStore } from "../images/store";
import { inlinePictureMaker } from "../images/picture-maker";
import { newsletterMailFor } from "../newsletter/signup";
import { upsertArticle } from "../news/repository";
import { newsroomOperations } from "../newsroom/operations";

/**
 * The keys pages are cached under in front of the site, as the routes declare them (compiled by
 * Vite, as in development, so the test reads the routes as they are now): a document names its
 * routes' keys and its cards' stories, a client navigation's `.data` its routes' keys from their
 * params, a feed its own; pages no shared cache keeps name nothing.
 */

const SITE_URL = "https://news.example.org";
const logger = pino({ level: "silent" });
const STORIES = Array.from({ length: 6 }, (_, i) => ({
  id: `harbor-story-${i}-${String(i).padStart(16, "0")}`,
  category: i % 2 === 0 ? "local-news" : "sports",
})) as { id: string; category: "local-news" | "sports" }[];

let vite: ViteDevServer;
let server: http.Server;
let base: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  vite = await createServer({
    appType: "custom",
    logLevel: "silent",
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  const [pglite] = testDatabases();
  if (!pglite) throw new Error("no test database");
  const database = await pglite.open();
  await database.migrate();
  dispose = database.dispose;
  for (const [index, story] of STORIES.entries()) {
    const at = new Date(Date.now() - (index + 1) * 3_600_000);
    await upsertArticle(database.db, {
      ...story,
      link: `https://sample.example.org/${story.id}`,
      title: `Harbor story ${index}`,
      excerpt: "In brief.",
      content: "<p>The whole story.</p>",
      image: null,
      author: "Staff Writer",
      publishedAt: at,
      firstSeenAt: at,
      updatedAt: at,
    });
  }
  const config = parseConfig({ SITE_URL, LOG_LEVEL: "silent" });
  const content = loadContent("content");
  const mail = newsletterMailFor(config, content.site.name);
  const app = express();
  app.use(
    pageHandler({
      build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
      mode: "development",
      loadContext: () => ({
        config,
        db: database.db,
        announceChange: () => database.announceChange(),
        logger,
        blog: createBlogSource(config.blog, config.siteUrl, logger),
        formLimiter: formLimiter(10),
        mail,
        clientAddress: "127.0.0.1",
        operations: newsroomOperations({
          database,
          logger,
          pass: { siteUrl: SITE_URL, siteName: "Test", sources: [], concurrency: 1 },
          mail,
        }),
        requestId: "test-request",
        pictures: folderPictureStore({ dir: "/nonexistent/pictures", maxBytes: 1 }),
        pictureMaker: inlinePictureMaker(),
        content,
      }),
      cache: null,
      bodyLimit: FORM_BODY_LIMIT,
    }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await vite?.close();
  await dispose?.();
});

async function keysOf(path: string) {
  const response = await fetch(`${base}${path}`, { redirect: "manual" });
  await response.arrayBuffer();
  const surrogate = response.headers.get("surrogate-key");
  // Both headers always name the same keys.
  expect(response.headers.get("cache-tag")).toBe(surrogate?.replaceAll(" ", ",") ?? null);
  return {
    status: response.status,
    keys: surrogate?.split(" ") ?? [],
    surrogateControl: response.headers.get("surrogate-control"),
  };
}

const article = (i: number) => `article-${STORIES[i]?.id}`;

describe("the keys a page is cached under", () => {
  it("the home page: the site, home, and every story its cards show", async () => {
    const home = await keysOf("/");
    expect(home.status).toBe(200);
    expect(home.keys.slice(0, 2)).toEqual(["site", "home"]);
    expect(home.keys).toEqual(expect.arrayContaining([article(0), article(1), article(2)]));
    expect(home.surrogateControl).toBe("max-age=60, stale-while-revalidate=600");
  });

  it("a section page: its category's key (the stories it lists) and its stories", async () => {
    const section = await keysOf("/local-news");
    expect(section.keys).toEqual([
      "site",
      "category-local-news",
      article(0),
      article(2),
      article(4),
    ]);
    // Community lists Local News's stories (its registry entry's `articlesFrom`): so does its key.
    expect((await keysOf("/community")).keys.slice(0, 2)).toEqual(["site", "category-local-news"]);
  });

  it("a story's page: its own key and the stories it links to", async () => {
    const story = await keysOf(`/article/${STORIES[2]?.id}`);
    expect(story.keys.slice(0, 2)).toEqual(["site", article(2)]);
    expect(story.keys).toContain(article(0));
  });

  it("a client navigation's data: its routes' keys, read from the matched routes' params", async () => {
    expect((await keysOf(`/article/${STORIES[2]?.id}.data`)).keys).toEqual(["site", article(2)]);
    expect((await keysOf("/_root.data")).keys).toEqual(["site", "home"]);
    expect((await keysOf("/sports.data")).keys).toEqual(["site", "category-sports"]);
  });

  it("feeds and sitemaps say their own keys", async () => {
    expect((await keysOf("/rss.xml")).keys).toEqual(["feeds"]);
    expect((await keysOf("/sports/rss.xml")).keys).toEqual(["feeds", "category-sports"]);
    expect((await keysOf("/sitemap.xml")).keys).toEqual(["sitemaps"]);
    expect((await keysOf("/corrections/rss.xml")).keys).toEqual(["corrections"]);
  });

  it("pages no shared cache keeps name nothing: an unknown page, the newsroom", async () => {
    const missing = await keysOf("/no-such-page");
    expect(missing.status).toBe(404);
    expect(missing.keys).toEqual([]);
    const signIn = await keysOf("/newsroom/sign-in");
    expect(signIn.status).toBe(200);
    expect(signIn.keys).toEqual([]);
    expect(signIn.surrogateControl).toBeNull();
  });
});
