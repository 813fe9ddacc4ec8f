import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { Window } from "happy-dom";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "../../e2e/routes";
import { createLocalBlogSource } from "../blog/local";
import { syncBlogIndex } from "../blog/search-index";
import { articles } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { loadFeedSources } from "../ingest/feeds-config";
import { runIngestPass } from "../ingest/ingest";
import { normalizeItem } from "../ingest/normalize";
import { parseFeed } from "../ingest/parse";
import { upsertArticle } from "../news/repository";

/**
 * What search engines and social previews see: every page's head, its structured data, the
 * sitemaps, robots.txt and our own feeds, served by the production build over the sample feeds.
 * SITE_URL differs from the address the test talks to, so every absolute URL must come from it.
 */

const SITE_URL = "https://news.example.org";
const HOSTILE_TITLE = "</script><script>alert(1)</script> & <!-- more";
const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let articleId = "";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  const logger = pino({ level: "silent" });
  await runIngestPass(loadFeedSources(path.resolve("config/feeds.sample.json")), {
    database: handle,
    logger,
    siteUrl: SITE_URL,
    siteName: "Test Ledger",
    force: true,
  });
  await syncBlogIndex(
    handle.db,
    createLocalBlogSource(path.resolve("content/blog"), { siteUrl: SITE_URL, logger }),
  );
  await upsertArticle(handle.db, {
    id: "hostile-title",
    category: "local-news",
    link: "https://sample.example.org/hostile",
    title: HOSTILE_TITLE,
    excerpt: "An excerpt with </script> inside.",
    content: "<p>Body</p>",
    author: "Staff Writer",
    publishedAt: new Date(Date.now() - 3600_000),
  });
  const [first] = await handle.db.select({ id: articles.id }).from(articles).limit(1);
  articleId = first?.id ?? "";
  app = await startTestApp(handle, { SITE_URL });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

async function get(route: string) {
  const response = await fetch(`${app.base}${route}`);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

interface Head {
  title: string;
  description: string | null;
  canonical: string | null;
  robots: string | null;
  meta: (key: string) => string | null;
  jsonLd: string[];
}

function readHead(html: string): Head {
  const window = new Window();
  window.document.write(html);
  const document = window.document;
  const attr = (selector: string, name: string) =>
    document.querySelector(selector)?.getAttribute(name) ?? null;
  return {
    title: document.title,
    description: attr('meta[name="description"]', "content"),
    canonical: attr('link[rel="canonical"]', "href"),
    robots: attr('meta[name="robots"]', "content"),
    meta: (key) =>
      attr(`meta[property="${key}"]`, "content") ?? attr(`meta[name="${key}"]`, "content"),
    jsonLd: Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map(
      (s) => s.textContent ?? "",
    ),
  };
}

const typesOf = (jsonLd: string): string[] =>
  (JSON.parse(jsonLd) as { "@graph": { "@type": string }[] })["@graph"].map((t) => t["@type"]);

const NOINDEX = new Set([
  "/privacy-policy",
  "/terms-of-service",
  "/search",
  "/search?q=harbor",
  ...NOT_FOUND_ROUTES,
]);

function expectedTypes(route: string): string[] {
  const own: Record<string, string[]> = {
    "/faq": ["FAQPage"],
    "/contact-us": ["ContactPage"],
    "/blog": ["BreadcrumbList"],
    "/corrections": ["BreadcrumbList"],
  };
  if (route.startsWith("/article/")) return ["NewsArticle", "BreadcrumbList"];
  if (route.startsWith("/blog/") && !NOT_FOUND_ROUTES.includes(route)) {
    return ["BlogPosting", "BreadcrumbList"];
  }
  return own[route] ?? [];
}

describe("every page's head", () => {
  const pages = () => [
    ...OK_ROUTES,
    `/article/${articleId}`,
    "/blog/how-to-attend-a-san-diego-city-council-meeting",
    ...NOT_FOUND_ROUTES,
  ];
  const heads = new Map<string, Head>();

  beforeAll(async () => {
    for (const route of pages()) heads.set(route, readHead((await get(route)).body));
  });

  it("has a title and description, unique across pages", () => {
    const indexable = pages().filter((r) => !NOINDEX.has(r));
    const titles = indexable.map((r) => heads.get(r)?.title);
    const descriptions = indexable.map((r) => heads.get(r)?.description);
    expect(titles.every((t) => t && / \| San Diego Local Ledger$/.test(t))).toBe(true);
    expect(new Set(titles).size).toBe(titles.length);
    expect(descriptions.every((d) => d && d.length >= 30)).toBe(true);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });

  it("has a canonical URL on SITE_URL, and Open Graph and Twitter tags that agree with it", () => {
    for (const route of pages()) {
      const head = heads.get(route);
      expect(head?.canonical, route).toMatch(new RegExp(`^${SITE_URL}/`));
      expect(head?.meta("og:url"), route).toBe(head?.canonical);
      for (const key of ["og:type", "og:title", "og:description", "og:site_name", "og:locale"]) {
        expect(head?.meta(key), `${route} ${key}`).toBeTruthy();
      }
      expect(head?.meta("og:image"), route).toMatch(/^https?:\/\//);
      expect(head?.meta("twitter:card"), route).toBe("summary_large_image");
      expect(head?.meta("twitter:title"), route).toBeTruthy();
    }
    expect(heads.get("/")?.meta("og:image")).toBe(`${SITE_URL}/images/og-default.png`);
    expect(heads.get("/")?.meta("og:image:width")).toBe("1200");
  });

  it("has exactly one JSON-LD block that parses, with the publication, the site and the page's own types", () => {
    for (const route of pages()) {
      const blocks = heads.get(route)?.jsonLd ?? [];
      expect(blocks, route).toHaveLength(1);
      const types = typesOf(blocks[0] ?? "{}");
      expect(types.slice(0, 2), route).toEqual(["NewsMediaOrganization", "WebSite"]);
      for (const type of expectedTypes(route)) expect(types, route).toContain(type);
    }
    for (const path of ["/local-news", "/community", "/sports"]) {
      expect(typesOf(heads.get(path)?.jsonLd[0] ?? "")).toEqual([
        "NewsMediaOrganization",
        "WebSite",
        "BreadcrumbList",
        "ItemList",
      ]);
    }
  });

  it("keeps legal texts, search results and not-found pages out of search engines", () => {
    for (const route of pages()) {
      const robots = heads.get(route)?.robots ?? "";
      expect(robots.includes("noindex"), route).toBe(NOINDEX.has(route));
    }
  });

  it("marks an article page as an article of its section", () => {
    const head = heads.get(`/article/${articleId}`);
    expect(head?.meta("og:type")).toBe("article");
    expect(head?.meta("article:published_time")).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(head?.meta("article:section")).toBeTruthy();
  });
});

describe("canonical URLs of lists", () => {
  it.each([
    ["/blog?page=2&utm_source=mail", `${SITE_URL}/blog?page=2`],
    ["/blog?page=1", `${SITE_URL}/blog`],
    ["/local-news?all=1&fbclid=x", `${SITE_URL}/local-news`],
    [
      "/archives?category=politics&year=2025&gclid=1",
      `${SITE_URL}/archives?category=politics&year=2025`,
    ],
  ])("%s → %s", async (route, canonical) => {
    expect(readHead((await get(route)).body).canonical).toBe(canonical);
  });

  it("keeps filtered archive pages out of the index, but not the archive itself", async () => {
    expect(readHead((await get("/archives?category=politics")).body).robots).toContain("noindex");
    expect(readHead((await get("/archives")).body).robots).toBeNull();
  });
});

describe("structured data from hostile text", () => {
  it("cannot break out of its script element, and keeps the text as it was", async () => {
    const { body } = await get("/article/hostile-title");
    expect(body).not.toContain("</script><script>alert(1)");
    const head = readHead(body);
    expect(head.jsonLd).toHaveLength(1);
    const graph = JSON.parse(head.jsonLd[0] ?? "{}") as { "@graph": { headline?: string }[] };
    expect(graph["@graph"].find((t) => t.headline)?.headline).toBe(HOSTILE_TITLE);
  });
});

describe("sitemaps and robots.txt", () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => ["url", "sitemap"].includes(name),
  });

  async function xml(route: string) {
    const { status, type, body } = await get(route);
    expect(status, route).toBe(200);
    expect(type, route).toMatch(/xml/);
    expect(XMLValidator.validate(body), route).toBe(true);
    return parser.parse(body) as Record<string, Record<string, unknown>>;
  }

  it("robots.txt points at the sitemaps", async () => {
    const { body } = await get("/robots.txt");
    expect(body).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
    expect(body).toContain(`Sitemap: ${SITE_URL}/news-sitemap.xml`);
  });

  it("the index lists child sitemaps that all answer, and together list exactly the stored articles", async () => {
    const index = await xml("/sitemap.xml");
    const children = (index.sitemapindex?.sitemap as { loc: string }[]).map((s) => s.loc);
    // One file per month the articles were first seen in: this month's, here.
    const month = new Date().toISOString().slice(0, 7);
    expect(children).toContain(`${SITE_URL}/sitemaps/articles-${month}.xml`);
    const listed: string[] = [];
    for (const child of children) {
      const set = await xml(child.replace(SITE_URL, ""));
      listed.push(...((set.urlset?.url as { loc: string }[] | undefined) ?? []).map((u) => u.loc));
    }
    const stored = await handle.db.select({ id: articles.id }).from(articles);
    const articleUrls = listed.filter((u) => u.includes("/article/")).sort();
    expect(articleUrls).toEqual(stored.map((a) => `${SITE_URL}/article/${a.id}`).sort());
    expect(listed).toContain(`${SITE_URL}/local-news`);
    expect(listed).toContain(`${SITE_URL}/blog/how-to-attend-a-san-diego-city-council-meeting`);
    expect(listed).not.toContain(`${SITE_URL}/privacy-policy`);
  });

  it("a month without articles, or another name, is not found", async () => {
    expect((await get("/sitemaps/articles-1999-01.xml")).status).toBe(404);
    expect((await get("/sitemaps/articles-2026-13.xml")).status).toBe(404);
    expect((await get("/sitemaps/nothing.xml")).status).toBe(404);
  });

  it("sends a numbered article sitemap of the old naming to the index", async () => {
    const response = await fetch(`${app.base}/sitemaps/articles-1.xml`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location") ?? "", app.base).pathname).toBe("/sitemap.xml");
  });

  it("the news sitemap lists only the last 48 hours, in the Google News format", async () => {
    const news = await xml("/news-sitemap.xml");
    const urls =
      (news.urlset?.url as { loc: string; "news:news": Record<string, unknown> }[]) ?? [];
    const since = Date.now() - 48 * 3600_000;
    const recent = (await handle.db.select().from(articles)).filter(
      (a) => a.publishedAt.getTime() >= since,
    );
    expect(urls.map((u) => u.loc).sort()).toEqual(
      recent.map((a) => `${SITE_URL}/article/${a.id}`).sort(),
    );
    expect(recent.length).toBeLessThan(await handle.db.$count(articles));
    const hostile = urls.find((u) => u.loc.endsWith("/hostile-title"));
    expect(hostile?.["news:news"]).toMatchObject({
      "news:publication": { "news:name": "San Diego Local Ledger", "news:language": "en" },
      "news:title": HOSTILE_TITLE,
    });
  });
});

describe("our RSS feeds", () => {
  it.each([
    ["/rss.xml", null],
    ["/local-news/rss.xml", "local-news"],
    ["/sports/rss.xml", "sports"],
  ])(
    "%s is valid RSS 2.0 that our own reader reads back to the stored articles",
    async (route, category) => {
      const { status, body } = await get(route);
      expect(status).toBe(200);
      expect(XMLValidator.validate(body)).toBe(true);
      expect(body).toContain(`<atom:link href="${SITE_URL}${route}" rel="self"`);
      const feed = parseFeed(new TextEncoder().encode(body));
      expect(feed.items.length).toBeGreaterThan(0);
      // Our reader strips markup from titles, so the hostile headline does not read back as stored.
      const items = feed.items.filter((item) => !item.link?.endsWith("/hostile-title"));
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const read = normalizeItem(item, {
          feedUrl: `${SITE_URL}${route}`,
          category: "local-news",
          baseUrl: SITE_URL,
        });
        const id = read?.link.replace(`${SITE_URL}/article/`, "") ?? "";
        const [stored] = await handle.db.select().from(articles).where(eq(articles.id, id));
        expect(stored, id).toBeDefined();
        expect(read?.title).toBe(stored?.title);
        expect(read?.author).toBe(stored?.author);
        expect(read?.date?.toISOString()).toBe(
          new Date(Math.floor((stored?.publishedAt.getTime() ?? 0) / 1000) * 1000).toISOString(),
        );
        if (category) expect(stored?.category).toBe(category);
      }
    },
  );

  it("each page links its feeds from its head", async () => {
    const home = (await get("/")).body;
    expect(home).toMatch(
      /<link rel="alternate" type="application\/rss\+xml"[^>]*href="\/rss\.xml"/,
    );
    const local = (await get("/local-news")).body;
    expect(local).toMatch(
      /<link rel="alternate" type="application\/rss\+xml"[^>]*href="\/local-news\/rss\.xml"/,
    );
  });
});

describe("the Nu HTML Checker", () => {
  it("finds no errors in any page", async () => {
    const java = spawnSync("java", ["-version"]);
    if (java.status !== 0) {
      throw new Error(
        "Java is needed to run the Nu HTML Checker (vnu-jar): install a JRE (Debian: default-jre-headless).",
      );
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-vnu-"));
    const routes = [
      ...OK_ROUTES,
      `/article/${articleId}`,
      "/blog/how-to-attend-a-san-diego-city-council-meeting",
      ...NOT_FOUND_ROUTES,
    ];
    const files = await Promise.all(
      routes.map(async (route, i) => {
        const file = path.join(dir, `${i}.html`);
        fs.writeFileSync(file, (await get(route)).body);
        return file;
      }),
    );
    const jar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");
    let report = "";
    try {
      execFileSync("java", ["-jar", jar, "--errors-only", "--format", "json", ...files], {
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (error) {
      report = (error as { stderr?: string }).stderr ?? String(error);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const messages = report
      ? (JSON.parse(report) as { messages: { url: string; message: string; extract?: string }[] })
          .messages
      : [];
    const readable = messages.map((m) => {
      const index = Number(/(\d+)\.html$/.exec(m.url)?.[1]);
      return `${routes[index] ?? m.url}: ${m.message} ${m.extract ?? ""}`;
    });
    expect(readable).toEqual([]);
  }, 120_000);
});
