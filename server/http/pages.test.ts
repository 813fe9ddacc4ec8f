import { folderPictureStore } from "../images/store";
import { inlinePictureMaker } from "../images/picture-maker";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "../../e2e/routes";
import type { CategoryKey } from "../../shared/categories";
import { createBlogSource } from "../blog/create-source";
import { parseConfig } from "../config";
import { loadContent } from "../content/load";
import { testDatabases } from "../db/test-databases";
import { formLimiter } from "../forms/guard";
import { upsertArticle } from "../news/repository";
import { refreshSearchWindows } from "../news/search-window";
import { articles } from "../db/schema";
import { inArray } from "drizzle-orm";
import { FORM_BODY_LIMIT } from "./app";
import { pageHandler } from "./page-handler";
import { pagePolicy } from "./security";
import { ensureBuilt } from "./test-build";
import { inlineScriptCount, refusedInlineScripts } from "./test-policy";
import { newsletterMailFor } from "../newsletter/signup";
import { newsroomOperations } from "../newsroom/operations";

/**
 * Every kind of page, rendered by the production build over a seeded database at a fixed moment,
 * compared byte for byte with the pages kept in `pages/`: a change to rendering that changes a page
 * shows here, line by line. Only what a build or a render legitimately changes is normalised: the
 * assets' file hashes and the render's Content-Security-Policy nonce.
 *
 * `PAGES_BUILD_ROOT=/path/to/checkout` renders that checkout's build instead (to write the pages
 * from a build before a change: `npx vitest run server/http/pages.test.ts -u`).
 */

const BUILD_ROOT = path.resolve(process.env.PAGES_BUILD_ROOT ?? ".");
const NOW = new Date("2026-11-26T12:00:00Z");
const ARTICLE_ID = "harbor-budget-passes-32d156f74d2cd5db";

/** Every route, pages below pages, unknown addresses at several depths, redirects, feeds. */
const PATHS = [
  ...OK_ROUTES,
  ...NOT_FOUND_ROUTES,
  `/article/${ARTICLE_ID}`,
  "/article/no-such-article",
  "/blog/balboa-park-on-a-budget",
  "/local-news/",
  "/LOCAL-NEWS",
  "/local-news/rss.xml",
  "/local-news/no/such/page",
  "/no-such-category/rss.xml",
  "/article",
  "/a/b/c/d",
  "/entertainment",
  "/rss.xml",
];

/** Stories for the home page's lists, a section's page and its feed, search and an article. */
const SEED: { category: CategoryKey; title: string; day: number; image?: string }[] = [
  { category: "local-news", title: "Harbor budget passes", day: 20 },
  { category: "local-news", title: "Trolley line extended to the harbor", day: 19 },
  { category: "national-news", title: "Senate weighs coastal funding", day: 21, image: "hero" },
  { category: "national-news", title: "Rail grants announced", day: 18 },
  { category: "world-news", title: "Pacific trade talks resume", day: 22 },
  { category: "world-news", title: "Border crossing hours change", day: 17 },
  { category: "business", title: "Shipyard hires 200 welders", day: 16 },
  { category: "technology", title: "Startups open a harbor lab", day: 15 },
  { category: "sports", title: "Padres sign a new catcher", day: 14 },
  { category: "community", title: "Library opens on Sundays", day: 13 },
];

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let server: http.Server;
let base: string;

beforeAll(async () => {
  // The footer's year and anything else a page reads from the clock.
  vi.useFakeTimers({ toFake: ["Date"], now: NOW });
  if (!process.env.PAGES_BUILD_ROOT) ensureBuilt();
  const build = (await import(
    pathToFileURL(path.join(BUILD_ROOT, "build/server/index.js")).href
  )) as ServerBuild;
  handle = await database.open();
  await handle.migrate();
  for (const [index, story] of SEED.entries()) {
    const slug = story.title.toLowerCase().replaceAll(" ", "-");
    const at = new Date(Date.UTC(2026, 10, story.day, 15));
    await upsertArticle(handle.db, {
      id: index === 0 ? ARTICLE_ID : `${slug}-${String(index).padStart(16, "0")}`,
      category: story.category,
      link: `https://sample.example.org/${slug}`,
      title: story.title,
      excerpt: `${story.title}, in brief.`,
      content: `<p>${story.title}: the whole story.</p>`,
      image: story.image ? `https://sample.example.org/${story.image}.jpg` : null,
      author: "Staff Writer",
      publishedAt: at,
      firstSeenAt: at,
      updatedAt: at,
    });
  }
  const config = parseConfig({ NODE_ENV: "production", LOG_LEVEL: "silent" });
  const logger = pino({ level: "silent" });
  const content = loadContent("content");
  // Only pages are rendered here: nothing is ever sent.
  const mail = newsletterMailFor(config, content.site.name);
  const app = express();
  app.use(
    pageHandler({
      build,
      mode: "production",
      loadContext: () => ({
        config,
        db: handle.db,
        announceChange: () => handle.announceChange(),
        logger,
        blog: createBlogSource(config.blog, config.siteUrl, logger),
        formLimiter: formLimiter(config.formRateLimit),
        mail,
        clientAddress: "127.0.0.1",
        operations: newsroomOperations({
          database: handle,
          logger,
          pass: {
            siteUrl: config.siteUrl,
            siteName: content.site.name,
            sources: [],
            concurrency: 1,
          },
          mail,
        }),
        requestId: "test-request",
        // Pages read no pictures here: a folder that is never written.
        pictures: folderPictureStore({ dir: "/nonexistent/pictures", maxBytes: 1 }),
        pictureMaker: inlinePictureMaker(),
        content,
      }),
      cache: null,
      policy: (inlineScripts) => pagePolicy(inlineScripts, config),
      bodyLimit: FORM_BODY_LIMIT,
    }),
  );
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  vi.useRealTimers();
  await new Promise((resolve) => server?.close(resolve));
  await handle?.dispose();
});

/** A file name per address: `/` is `home`, `/a/b?q=c` is `a~b@q=c`, `/A` is `a.capitals`. */
function fileName(address: string): string {
  const name = address.slice(1).replaceAll("/", "~").replaceAll("?", "@") || "home";
  return name === name.toLowerCase() ? `${name}.txt` : `${name.toLowerCase()}.capitals.txt`;
}

/**
 * The assets' names without their content hashes (`/assets/root-AbC123_x.js`: `root-[hash].js`),
 * and the contact form's signed time, made with each database's own secret.
 */
const withoutAssetHashes = (text: string) =>
  text
    .replace(/(\/assets\/[\w.-]+?)-[\w-]{8}\.(js|css|woff2)/g, "$1-[hash].$2")
    .replace(/("version": ?")[\da-f]{8}(")/g, "$1[hash]$2")
    .replace(/\b\d{13}\.[\w-]{43}\b/g, "[form token]");

/**
 * The page's status, its headers in order of name, and its body, as the site sends them, with the
 * render's CSP nonce (new for every render) as `[nonce]`.
 */
async function answer(address: string): Promise<string> {
  const response = await fetch(`${base}${address}`, { redirect: "manual" });
  const headers = [...response.headers]
    .filter(([name]) => !["date", "connection", "keep-alive", "content-length"].includes(name))
    .map(([name, value]) => `${name}: ${value}`)
    .sort();
  const page = `${response.status}\n${headers.join("\n")}\n\n${await response.text()}`;
  const nonce = /'nonce-([\w-]+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return withoutAssetHashes(nonce ? page.replaceAll(nonce, "[nonce]") : page);
}

describe("every page", () => {
  it.each(PATHS)("%s is the page kept for it", async (address) => {
    await expect(await answer(address)).toMatchFileSnapshot(`pages/${fileName(address)}`);
  });
});

describe("what a page ships", () => {
  it("the home banner's text only with the home page, once in its data", async () => {
    const { breaking } = loadContent("content").site;
    const occurrences = async (address: string) =>
      (await (await fetch(`${base}${address}`)).text()).split(breaking).length - 1;
    expect(breaking).not.toBe("");
    expect(await occurrences("/about-us")).toBe(0);
    expect(await occurrences("/local-news")).toBe(0);
    // The banner itself, and the home route's data that hydrates it.
    expect(await occurrences("/")).toBe(2);
  });

  it.each(PATHS)(
    "%s: every inline script runs under the policy sent with it, by its nonce",
    async (address) => {
      const response = await fetch(`${base}${address}`, { redirect: "manual" });
      if (!response.headers.get("content-type")?.startsWith("text/html")) return;
      const policy = response.headers.get("content-security-policy") ?? "";
      const html = await response.text();
      expect(policy).toMatch(/script-src 'self' 'nonce-[\w-]{22}'/);
      expect(await inlineScriptCount(html)).toBeGreaterThan(0);
      expect(await refusedInlineScripts(html, policy)).toEqual([]);
    },
  );
});

describe("search through the newest stories' window", () => {
  const reports = Array.from(
    { length: 40 },
    (_, i) => `tide-report-${String(i).padStart(16, "0")}`,
  );

  beforeAll(async () => {
    for (const [i, id] of reports.entries()) {
      const at = new Date(Date.UTC(2026, 8, 20 + i, 12));
      await upsertArticle(handle.db, {
        id,
        category: "local-news",
        link: `https://sample.example.org/${id}`,
        title: `Tide report ${i}`,
        excerpt: "Low tide at noon.",
        content: "<p>Low tide at noon.</p>",
        image: null,
        author: "Staff Writer",
        publishedAt: at,
        firstSeenAt: at,
        updatedAt: at,
      });
    }
    // The newest 35 stories (the 11 above and 24 tide reports) hold a page of matches.
    await refreshSearchWindows(handle.db, [10, 35]);
  });

  afterAll(async () => {
    await refreshSearchWindows(handle.db, []);
    await handle.db.delete(articles).where(inArray(articles.id, reports));
  });

  const resultIds = (html: string) =>
    [...html.matchAll(/href="\/article\/(tide-report-\d+)"/g)].map((m) => m[1]);

  it("ranks the window's matches and links to the older ones, which follow", async () => {
    const first = await fetch(`${base}/search?q=tide+report`);
    expect(first.status).toBe(200);
    const html = (await first.text()).replaceAll("<!-- -->", "");
    const older = /<a[^>]*href="(\/search\?[^"]*before=[^"]*)"[^>]*>Search older stories<\/a>/.exec(
      html,
    )?.[1];
    const status = html.indexOf('role="status"');
    expect(older, html.slice(status, status + 400)).toBeDefined();
    const page2 = /href="(\/search\?q=tide\+report&amp;page=2)"/.exec(html);
    const [, windowed] = /(\d+) results, page 1 of 2/.exec(html) ?? [];
    expect(page2).not.toBeNull();
    const second = (await (await fetch(`${base}/search?q=tide+report&page=2`)).text()).replaceAll(
      "<!-- -->",
      "",
    );
    const next = await fetch(`${base}${older?.replaceAll("&amp;", "&")}`);
    expect(next.status).toBe(200);
    const rest = (await next.text()).replaceAll("<!-- -->", "");
    expect(rest).toMatch(/\d+ results?, published up to /);
    expect(rest).not.toContain("Search older stories");
    const seen = [...resultIds(html), ...resultIds(second), ...resultIds(rest)];
    expect(Number(windowed)).toBe(resultIds(html).length + resultIds(second).length);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...reports].sort());
  });

  it.each([
    "not-a-date",
    "2026-13-45",
    `2026-10-01~${"x".repeat(301)}`,
    // What the database would refuse, once answered 503: NUL in the id, years it cannot hold.
    "2026-10-01~a\u0000b",
    "-200000-01-01",
    "+275000-01-01",
  ])("answers a start it cannot read (%j) with 404", async (before) => {
    const response = await fetch(`${base}/search?q=tide&before=${encodeURIComponent(before)}`);
    expect(response.status).toBe(404);
  });
});
