import path from "node:path";
import { pino } from "pino";
import { createRequestHandler, type EntryContext, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { documentRenderer } from "../../app/entry.server";
import { initialRouteIds, withInitialRoutes } from "../../app/lib/initial-routes";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "../../e2e/routes";
import { createBlogSource } from "../blog/create-source";
import { parseConfig } from "../config";
import { loadContent } from "../content/load";
import { testDatabases } from "../db/test-databases";
import { formLimiter } from "../forms/guard";
import { upsertArticle } from "../news/repository";
import type { LoadContext } from "./load-context";
import { ensureBuilt } from "./test-build";

/**
 * The server entry gives React Router's ServerRouter only the routes a page can name (decision
 * 017). Every page must come out exactly as with the whole route table: rendered both ways through
 * the production build, over a database with articles, and compared byte for byte.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let context: LoadContext;
let build: ServerBuild;

const ARTICLE_ID = "harbor-budget-passes-32d156f74d2cd5db";

/** Every kind of address: pages, pages below pages, unknown ones at several depths, odd cases. */
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
  "/article",
  "/a/b/c/d",
  "/entertainment",
];

beforeAll(async () => {
  ensureBuilt();
  build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  handle = await database.open();
  await handle.migrate();
  await upsertArticle(handle.db, {
    id: ARTICLE_ID,
    category: "local-news",
    link: "https://sample.example.org/harbor-budget",
    title: "Harbor budget passes",
    excerpt: "The port's budget passed.",
    content: "<p>The port's budget passed on Tuesday.</p>",
    author: "Staff Writer",
    publishedAt: new Date(Date.UTC(2026, 10, 20)),
  });
  const config = parseConfig({ NODE_ENV: "production", LOG_LEVEL: "silent" });
  const logger = pino({ level: "silent" });
  context = {
    config,
    db: handle.db,
    logger,
    blog: createBlogSource(config.blog, config.siteUrl, logger),
    content: loadContent(config.contentDir),
    formLimiter: formLimiter(config.formRateLimit),
    clientAddress: "127.0.0.1",
    requestId: "test-request",
  };
}, 120_000);

afterAll(async () => {
  await handle?.dispose();
});

/** The build with its entry's document render given `prepare` instead of the site's. */
function buildWith(prepare: (context: EntryContext) => EntryContext): ServerBuild {
  const entry = build.entry.module as ServerBuild["entry"]["module"] & {
    documentRenderer: typeof documentRenderer;
  };
  return {
    ...build,
    entry: { ...build.entry, module: { ...entry, default: entry.documentRenderer(prepare) } },
  };
}

async function page(handler: ReturnType<typeof createRequestHandler>, address: string) {
  const response = await handler(new Request(`${context.config.siteUrl}${address}`), context);
  return { status: response.status, body: await response.text() };
}

describe("pages rendered with only the routes they can name", () => {
  it("are byte for byte the pages rendered with every route", async () => {
    const site = createRequestHandler(build, "production");
    let given: EntryContext[] = [];
    const everyRoute = createRequestHandler(
      buildWith((routerContext) => {
        given.push(routerContext);
        return routerContext;
      }),
      "production",
    );
    for (const address of PATHS) {
      given = [];
      const theirs = await page(everyRoute, address);
      const ours = await page(site, address);
      expect(ours, address).toEqual(theirs);
      // Each rendered a document (not a redirect or a resource), with the whole route table.
      if (theirs.body.startsWith("<!DOCTYPE html>")) {
        expect(given, address).toHaveLength(1);
        expect(Object.keys(given[0]?.manifest.routes ?? {}).length).toBeGreaterThan(40);
      }
    }
    const article = await page(site, `/article/${ARTICLE_ID}`);
    expect(article.status).toBe(200);
    expect(article.body).toContain("Harbor budget passes");
    expect((await page(site, "/no-such-page")).status).toBe(404);
  });

  it("name the page's own routes and those of every address above it, nothing else", async () => {
    const contexts = new Map<string, EntryContext>();
    const handler = createRequestHandler(
      buildWith((routerContext) => {
        contexts.set(routerContext.staticHandlerContext.location.pathname, routerContext);
        return routerContext;
      }),
      "production",
    );
    for (const address of ["/", `/article/${ARTICLE_ID}`, "/local-news/no/such/page"]) {
      await page(handler, address);
    }
    const ids = (pathname: string) => {
      const routerContext = contexts.get(pathname);
      if (!routerContext) throw new Error(`${pathname} rendered no document`);
      return [...initialRouteIds(routerContext)].sort();
    };
    expect(ids("/")).toEqual(["root", "routes/home"]);
    // `/article` alone is no page: the catch-all answers it.
    expect(ids(`/article/${ARTICLE_ID}`)).toEqual([
      "catch-all",
      "root",
      "routes/article",
      "routes/home",
    ]);
    expect(ids("/local-news/no/such/page")).toEqual([
      "catch-all",
      "category/local-news",
      "root",
      "routes/home",
    ]);
    // The route branches handed on end in those routes only, in React Router's order.
    for (const [pathname, routerContext] of contexts) {
      const leafIds = (branches: EntryContext["branches"]) =>
        branches.map((branch) => branch.routesMeta[branch.routesMeta.length - 1]?.route.id);
      const given = leafIds(withInitialRoutes(routerContext).branches);
      expect(given.length, pathname).toBeLessThan(routerContext.branches.length / 5);
      expect(given, pathname).toEqual(
        leafIds(routerContext.branches).filter((id) => given.includes(id)),
      );
      expect([...new Set(given)].sort(), pathname).toEqual(ids(pathname));
    }
  });
});
