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
import { pageCacheFor } from "../http/page-cache";
import { pageHandler } from "../http/page-handler";
import { folderPictureStore } from "../images/store";
import { inlinePictureMaker } from "../images/picture-maker";
import { newsletterMailFor } from "../newsletter/signup";
import { upsertArticle } from "../news/repository";
import { newsroomOperations } from "../newsroom/operations";
import { takeDown } from "../newsroom/stories";
import { withPurger } from "./changes";
import { purgeQueue, type Purger } from "./purge";
import { startVarnish } from "./test-varnish";
import { varnishPurger } from "./varnish";

/**
 * The whole way, on one machine: Varnish (config/varnish/default.vcl) in front of the site's pages
 * (the routes compiled by Vite, our own page cache on), an editor takes a story down, and the next
 * reader through Varnish gets the home page without it, while a page the story was not on stays
 * in Varnish. Fails without varnishd (`node scripts/ensure-varnish.js`).
 */

const SITE_URL = "https://news.example.org";
const logger = pino({ level: "silent" });
const editor = { id: 1, email: "editor@example.org" };
const STORIES = [
  {
    id: "harbor-budget-passes-0000000000000001",
    category: "local-news",
    title: "Harbor budget passes",
  },
  {
    id: "padres-sign-a-catcher-0000000000000002",
    category: "sports",
    title: "Padres sign a catcher",
  },
] as const;

let vite: ViteDevServer;
let site: http.Server;
let varnish: { url: string; stop: () => Promise<void> } | undefined;
let purger: Purger;
let services: Parameters<typeof takeDown>[0];
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
      // Our own page cache too: the purge must not find the old page there.
      cache: await pageCacheFor(config, database),
      bodyLimit: FORM_BODY_LIMIT,
    }),
  );
  site = http.createServer(app);
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  varnish = await startVarnish((site.address() as AddressInfo).port);
  purger = purgeQueue(varnishPurger([varnish.url]), { logger, settleMs: 100 });
  const announcing = withPurger(database, purger);
  services = { db: announcing.db, announceChange: (keys) => announcing.announceChange(keys) };
}, 120_000);

afterAll(async () => {
  await varnish?.stop();
  await new Promise((resolve) => site?.close(resolve));
  await vite?.close();
  await dispose?.();
});

/** A page through Varnish: its text, and whether Varnish answered it from its cache. */
async function get(path: string) {
  const response = await fetch(`${varnish?.url}${path}`);
  const text = await response.text();
  // X-Varnish names two requests on a hit (this one and the one that stored the page).
  const hit = (response.headers.get("x-varnish") ?? "").trim().split(/\s+/).length === 2;
  return { status: response.status, text, hit, headers: response.headers };
}

describe("Varnish in front of the site", () => {
  it("keeps pages, and a take-down purges the home page and the story's, not other sections", async () => {
    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.text).toContain("Harbor budget passes");
    expect(home.headers.get("surrogate-key")).toBeNull();
    expect(home.headers.get("cache-control")).toBe("public, no-cache");
    expect((await get("/")).hit).toBe(true);
    expect((await get("/sports")).text).toContain("Padres sign a catcher");
    expect((await get("/sports")).hit).toBe(true);
    expect((await get(`/article/${STORIES[0].id}`)).status).toBe(200);
    expect((await get(`/article/${STORIES[0].id}`)).hit).toBe(true);

    expect(await takeDown(services, editor, STORIES[0].id, "Legal request")).toMatchObject({
      ok: true,
    });
    await purger.idle();

    const after = await get("/");
    expect(after.hit).toBe(false);
    expect(after.text).not.toContain("Harbor budget passes");
    const story = await get(`/article/${STORIES[0].id}`);
    expect(story.hit).toBe(false);
    expect(story.status).toBe(410);
    // The sports page did not show the story: Varnish keeps it.
    expect((await get("/sports")).hit).toBe(true);
  });
});
