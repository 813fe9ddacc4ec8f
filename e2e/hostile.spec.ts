import { expect, test, type Page } from "@playwright/test";
import { categoryByKey } from "../shared/categories";
import { categoryFeedPath } from "../shared/sitemap";
import { plainText } from "../server/blog/fields";
import { cleanLink } from "../server/ingest/normalize";
import {
  ATOM_CATEGORY,
  HOSTILE_ORIGIN,
  RSS_CATEGORY,
  hostileItems,
  hostilePosts,
} from "../fixtures/hostile/documents";
import { MARKER, PAYLOADS, SEARCH_WORD } from "../fixtures/hostile/payloads";
import { DESKTOP, eachStep, onlyInProject } from "./helpers";

/**
 * The hostile-input site (scripts/e2e-server.js with E2E_SITE=hostile): every feed field and blog
 * field carries the payloads of fixtures/hostile/payloads.ts. Every page that shows them is opened in
 * the browser, with the site's Content-Security-Policy and with the policy bypassed (as if a proxy
 * dropped it), and nothing may run: no dialog, no console message from injected code, no page error,
 * no policy violation, no `window.__pwned`, no frame. The DOM is checked too: no handler attributes,
 * no script addresses, no script but ours, bodies within the sanitiser's allowlist, JSON-LD that
 * parses and keeps hostile titles as text.
 */

const SITE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}`;
test.use({ baseURL: SITE_ORIGIN });

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

// Any picture from elsewhere (the payloads point at made-up hosts) is answered with this, offline.
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** Any address that is not on the site. */
const ELSEWHERE = new RegExp(`^(?!${SITE_ORIGIN.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/)`);

const CATEGORY_PATHS = [RSS_CATEGORY, ATOM_CATEGORY].map((key) => {
  const path = categoryByKey(key).path;
  if (path === null) throw new Error(`${key} has no page`);
  return path;
});
const FEED_PATHS = ["/rss.xml", ...CATEGORY_PATHS.map(categoryFeedPath)];
// One article per item, but for items of both feeds whose (hostile, yet usable) link is the same.
const ITEM_COUNT = new Set(
  [...hostileItems("rss", new Date()), ...hostileItems("atom", new Date())].map(
    (item) => cleanLink(item.link, HOSTILE_ORIGIN) ?? item.guid,
  ),
).size;
const POSTS = hostilePosts(new Date());

/** What the page did that it must not: collected by listeners from before the first navigation. */
async function watch(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("dialog", (dialog) => {
    seen.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    const text = message.text();
    // The browser's own note about a picture or page that answered 404 is no script running.
    if (
      text.includes(MARKER) ||
      (message.type() === "error" && !/^Failed to load resource/.test(text))
    ) {
      seen.push(`console.${message.type()}: ${text}`);
    }
  });
  page.on("pageerror", (error) => seen.push(`page error: ${error.message}`));
  page.on("frameattached", (frame) => seen.push(`frame attached: ${frame.url()}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  // A pattern rather than a function: Playwright matches it in the browser's driver, so the site's own
  // requests are not each stopped to ask this process (about a fifth of every page's load).
  await page.route(ELSEWHERE, (route) =>
    route.fulfill({ status: 200, contentType: "image/png", body: PIXEL }),
  );
  return seen;
}

/** Everything in the DOM that could run, or that the sanitiser should have taken out. */
function domProblems(): string[] {
  const problems: string[] = [];
  const where = (el: Element) =>
    `<${el.tagName.toLowerCase()}>${el.closest(".article-body") ? " in the body" : ""}`;
  const scriptUrl = /^(?:javascript|data|vbscript):/i;
  const urlAttributes = new Set([
    "href",
    "src",
    "action",
    "formaction",
    "data",
    "poster",
    "background",
    "srcset",
    "ping",
    "cite",
    "codebase",
    "lowsrc",
    "to",
    "values",
  ]);
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const value = attr.value.slice(0, 80);
      if (name.startsWith("on")) problems.push(`${where(el)} has ${name}="${value}"`);
      if (name === "srcdoc" || name === "formaction" || name === "autofocus") {
        problems.push(`${where(el)} has ${name}`);
      }
      // Browsers skip controls and spaces in a scheme; so does this check.
      const bare = Array.from(attr.value)
        .filter(
          (c) =>
            c > " " &&
            !/[\u007f-\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/.test(c),
        )
        .join("");
      if ((urlAttributes.has(name) || name.endsWith(":href")) && scriptUrl.test(bare)) {
        problems.push(`${where(el)} has ${name}="${value}"`);
      }
      if (name === "style" && /expression|javascript:|vbscript:|behavior|binding/i.test(bare)) {
        problems.push(`${where(el)} has style="${value}"`);
      }
    }
  }
  const forbidden =
    "iframe, frame, frameset, object, embed, applet, base, meta[http-equiv], math, marquee, " +
    "svg script, svg a, svg set, svg animate, svg foreignObject, body style, body link, body meta";
  for (const el of document.querySelectorAll(forbidden)) problems.push(`${where(el)} is present`);
  for (const form of document.forms) {
    const action = new URL(form.getAttribute("action") ?? "", location.href);
    if (action.origin !== location.origin) problems.push(`a form posts to ${action.href}`);
  }

  // Sanitised bodies hold the allowlist's tags and attributes only, with web and mail addresses;
  // their pictures are ours (server/images/body.ts): our copies, or files of the site's own.
  const allowed: Record<string, string[]> = {
    a: ["href", "target", "rel"],
    img: ["src", "srcset", "sizes", "alt", "width", "height", "loading", "decoding", "style"],
    source: ["type", "srcset", "sizes"],
  };
  const tags =
    "p br a ul ol li em strong b i h2 h3 h4 h5 h6 blockquote figure figcaption picture source img span code pre";
  for (const el of document.querySelectorAll(".article-body *")) {
    const tag = el.tagName.toLowerCase();
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml" || !tags.split(" ").includes(tag)) {
      problems.push(`${where(el)} is outside the allowlist`);
      continue;
    }
    for (const attr of el.attributes) {
      if (!(allowed[tag] ?? []).includes(attr.name)) {
        problems.push(`${where(el)} has ${attr.name}, outside the allowlist`);
      }
    }
    const href = el.getAttribute("href");
    if (href !== null && !/^(?:https?:\/\/|mailto:)/.test(href)) {
      problems.push(`${where(el)} points to ${href.slice(0, 80)}`);
    }
    const pictures = [
      el.getAttribute("src"),
      ...(el.getAttribute("srcset") ?? "").split(",").map((c) => c.trim().split(/\s+/)[0] ?? ""),
    ].filter((address): address is string => Boolean(address));
    for (const address of pictures) {
      if (!/^\/images\/[\w./-]+$/.test(address)) {
        problems.push(`${where(el)} shows a picture from ${address.slice(0, 80)}`);
      }
    }
    const style = el.getAttribute("style");
    if (style !== null && !/^background-color:#[0-9a-f]{6}$/.test(style)) {
      problems.push(`${where(el)} has the style ${style.slice(0, 80)}`);
    }
  }

  // Our inline scripts (React's and React Router's) carry the render's nonce, as the policy allows
  // them (`script.nonce`: browsers hide the attribute, not the property); nothing else knows it.
  const nonces = new Set<string>();
  for (const script of document.querySelectorAll("script")) {
    const src = script.getAttribute("src");
    const type = script.getAttribute("type");
    if (src !== null) {
      const url = new URL(src, location.href);
      if (url.origin !== location.origin || !url.pathname.startsWith("/assets/")) {
        problems.push(`a script from ${src.slice(0, 80)}`);
      }
    } else if (type === "application/ld+json") {
      try {
        JSON.parse(script.textContent ?? "");
      } catch {
        problems.push(`JSON-LD that does not parse: ${(script.textContent ?? "").slice(0, 80)}`);
      }
    } else if (script.nonce === "") {
      problems.push(`a script that is not ours: ${(script.textContent ?? "").slice(0, 80)}`);
    } else nonces.add(script.nonce);
  }
  if (nonces.size > 1) problems.push(`scripts with ${nonces.size} different nonces`);
  return problems;
}

/** Lets handlers that wait for an event (a failed picture, focus, a toggle) fire. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))),
  );
}

/** Opens `route` and fails on anything that ran or could run. Returns the answer's status. */
async function expectInert(page: Page, seen: string[], route: string): Promise<number> {
  seen.length = 0;
  const response = await page.goto(route);
  // Hydrated, as helpers.ts waitForHydration tells it (the menu button's aria-expanded), but checked
  // every frame: its expect polls at 100, 250, 500 ms, which over some 800 page views adds minutes.
  await page.waitForFunction(() =>
    document.querySelector('button[aria-controls="mobile-menu"]')?.hasAttribute("aria-expanded"),
  );
  await settle(page);
  const problems = [...seen, ...(await page.evaluate(domProblems))];
  if (await page.evaluate(() => window.__pwned !== undefined)) problems.push("window.__pwned set");
  if (page.frames().length !== 1) problems.push(`${page.frames().length - 1} frames`);
  expect(problems, route).toEqual([]);
  return response?.status() ?? 0;
}

/**
 * The headline of the first node of `type` in the page's JSON-LD, which must be the title the page shows, as text.
 * Read in one step in the page: this runs for every article and post.
 */
async function expectHeadlineIsTitle(page: Page, type: string): Promise<string> {
  const { headline, title } = await page.evaluate((wanted) => {
    type Node = Record<string, unknown>;
    const scripts = document.querySelectorAll('script[type="application/ld+json"]');
    const nodes = [...scripts].flatMap((script): Node[] => {
      const data = JSON.parse(script.textContent ?? "") as Node & { "@graph"?: Node[] };
      return data["@graph"] ?? [data];
    });
    return {
      headline: nodes.find((node) => node["@type"] === wanted)?.headline,
      title: document.querySelector("main h1")?.textContent ?? null,
    };
  }, type);
  expect(headline, `${type} headline`).toBe(title);
  return String(headline);
}

/** Article pages from the sitemap: every stored article is a hostile one. */
async function articlePaths(page: Page): Promise<string[]> {
  const response = await page.request.get(
    // This month's article sitemap: the hostile feeds were stored when the server started.
    `/sitemaps/articles-${new Date().toISOString().slice(0, 7)}.xml`,
  );
  const xml = await response.text();
  return [...xml.matchAll(/<loc>[^<]*?(\/article\/[^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
}

/** Follows a list's "Next" links from `first`, checking every page. */
async function eachListPage(page: Page, seen: string[], first: string): Promise<string[]> {
  const visited: string[] = [];
  let route: string | null = first;
  while (route !== null && visited.length < 30) {
    visited.push(route);
    await expectInert(page, seen, route);
    const next = page.getByRole("link", { name: "Next", exact: true });
    route = (await next.count()) > 0 ? await next.first().getAttribute("href") : null;
  }
  return visited;
}

const ARTICLE_PARTS = 4;
const POST_PARTS = 2;

for (const bypassCSP of [false, true]) {
  const mode = bypassCSP ? "with the policy bypassed" : "with the site's policy";

  test.describe(`hostile content is inert ${mode}`, () => {
    test.use({ bypassCSP });
    test.setTimeout(180_000);
    // What runs without the policy does not depend on the width: one width is enough.
    if (bypassCSP) onlyInProject(DESKTOP, "the policy is bypassed at one width");

    test("home, category pages, archives, search and the blog list", async ({ page }) => {
      const seen = await watch(page);
      const lists: string[] = [];
      await eachStep(
        ["/", ...CATEGORY_PATHS],
        (route) => route,
        async (route) => {
          await expectInert(page, seen, route);
        },
      );
      await eachStep(
        [
          "/archives",
          `/archives?category=${RSS_CATEGORY}`,
          `/search?q=${SEARCH_WORD}`,
          "/search?q=script",
          "/blog",
        ],
        (route) => route,
        async (route) => {
          lists.push(...(await eachListPage(page, seen, route)));
        },
      );
      // Every page of the lists was seen: 5 lists, the long ones over several pages.
      expect(lists.length).toBeGreaterThan(10);
    });

    // Each article and post once: at one width (what a page lets run does not depend on its width)
    // and with the policy bypassed, where anything the sanitiser let through would run rather than
    // be blocked. The lists above show the items' titles, excerpts and pictures with the
    // policy at both widths and without it at one. Keeps the suite within CI's time.
    if (!bypassCSP) return;
    test.describe("every article and post", () => {
      for (let part = 0; part < ARTICLE_PARTS; part++) {
        test(`article pages, part ${part + 1} of ${ARTICLE_PARTS}`, async ({ page }) => {
          const seen = await watch(page);
          const all = await articlePaths(page);
          expect(all).toHaveLength(ITEM_COUNT);
          const mine = all.filter((_, i) => i % ARTICLE_PARTS === part);
          await eachStep(
            mine,
            (route) => route,
            async (route) => {
              expect(await expectInert(page, seen, route)).toBe(200);
              await expectHeadlineIsTitle(page, "NewsArticle");
            },
          );
        });
      }

      for (let part = 0; part < POST_PARTS; part++) {
        test(`blog posts, part ${part + 1} of ${POST_PARTS}`, async ({ page }) => {
          const seen = await watch(page);
          const mine = POSTS.filter((_, i) => i % POST_PARTS === part);
          await eachStep(
            mine,
            (post) => `/blog/${post.slug}`,
            async (post) => {
              const status = await expectInert(page, seen, `/blog/${post.slug}`);
              // A post whose front matter names a script address as its image is left out whole.
              expect(status).toBe(post.refused ? 404 : 200);
              if (post.refused) return;
              const headline = await expectHeadlineIsTitle(page, "BlogPosting");
              // Front matter is text: the title arrives whole, markup and all, only ever as text.
              expect(headline).toBe(plainText(post.title));
            },
          );
        });
      }
    });
  });
}

test("the checks catch a payload that is let through", async ({ page }) => {
  // The same watchers and DOM checks on a page that renders some payloads raw: each must be caught,
  // or a passing run above would prove nothing.
  const seen = await watch(page);
  const raw = ["script-element", "img-onerror", "a-javascript", "iframe-srcdoc"].map(
    (name) => PAYLOADS.find((p) => p.name === name)?.payload ?? "",
  );
  await page.setContent(
    `<!doctype html><title>raw</title><div class="article-body">${raw.join("")}</div>`,
  );
  await settle(page);
  expect(seen).toEqual(
    expect.arrayContaining([
      `console.error: ${MARKER}:script-element`,
      `dialog: ${MARKER}:script-element`,
      `dialog: ${MARKER}:img-onerror`,
      `dialog: ${MARKER}:iframe-srcdoc`,
    ]),
  );
  expect(await page.evaluate(() => window.__pwned)).toBeDefined();
  const problems = await page.evaluate(domProblems);
  for (const found of [
    "<img> in the body has onerror",
    '<a> in the body has href="javascript:',
    "<iframe> in the body has srcdoc",
    "a script that is not ours",
  ]) {
    expect(
      problems.some((p) => p.startsWith(found)),
      found,
    ).toBe(true);
  }
});

test("every hostile item and post is on the site", async ({ page }) => {
  expect(await articlePaths(page)).toHaveLength(ITEM_COUNT);
  const listed = await page.request.get("/sitemaps/blog.xml");
  const slugs = [...(await listed.text()).matchAll(/\/blog\/(hostile-[a-z0-9-]+)</g)].map(
    (m) => m[1],
  );
  expect(slugs.sort()).toEqual(
    POSTS.filter((post) => !post.refused)
      .map((post) => post.slug)
      .sort(),
  );
  // The table covers each sink with more than a token few payloads.
  expect(PAYLOADS.length).toBeGreaterThan(60);
});

test("a JSON-LD breakout in a title stays text in the page's JSON-LD", async ({ page }) => {
  const seen = await watch(page);
  const post = POSTS.find((p) => p.name === "json-ld-breakout");
  expect(post).toBeDefined();
  await expectInert(page, seen, `/blog/${post?.slug}`);
  const headline = await expectHeadlineIsTitle(page, "BlogPosting");
  expect(headline).toContain(`"}]</script><script>`);
  const html = await (await page.request.get(`/blog/${post?.slug}`)).text();
  expect(html).not.toContain(`"}]</script><script>`);
});

interface FeedEntry {
  title: string;
  description: string;
  creator: string;
  link: string;
  media: string | null;
}

test("our RSS feeds are well-formed and what they say is inert in a feed reader", async ({
  page,
}) => {
  const seen = await watch(page);
  await eachStep(
    FEED_PATHS,
    (path) => path,
    async (path) => {
      const response = await page.request.get(path);
      expect(response.status()).toBe(200);
      const xml = await response.text();
      await page.setContent("<!doctype html><title>reader</title>");
      const entries = await page.evaluate((source): FeedEntry[] | string => {
        const doc = new DOMParser().parseFromString(source, "application/xml");
        const error = doc.querySelector("parsererror");
        if (error) return error.textContent ?? "parser error";
        const DC = "http://purl.org/dc/elements/1.1/";
        const MEDIA = "http://search.yahoo.com/mrss/";
        return [...doc.getElementsByTagName("item")].map((item) => ({
          title: item.getElementsByTagName("title")[0]?.textContent ?? "",
          description: item.getElementsByTagName("description")[0]?.textContent ?? "",
          creator: item.getElementsByTagNameNS(DC, "creator")[0]?.textContent ?? "",
          link: item.getElementsByTagName("link")[0]?.textContent ?? "",
          media: item.getElementsByTagNameNS(MEDIA, "content")[0]?.getAttribute("url") ?? null,
        }));
      }, xml);
      if (typeof entries === "string") throw new Error(`${path} is not well-formed: ${entries}`);
      expect(entries.length).toBeGreaterThan(10);
      for (const entry of entries) {
        expect(entry.link).toMatch(new RegExp(`^${SITE_ORIGIN}/article/`));
        if (entry.media !== null) expect(entry.media).toMatch(/^https?:\/\//);
      }
      // A reader shows the title and author as text and renders the description as HTML, with
      // scripts on and no policy: our descriptions must hold no markup that does anything.
      seen.length = 0;
      await page.setContent(
        `<!doctype html><title>reader</title><body>${entries
          .map((e) => `<article><div class="description">${e.description}</div></article>`)
          .join("\n")}</body>`,
      );
      await page.evaluate((list) => {
        const articles = document.querySelectorAll("article");
        list.forEach((entry, i) => {
          const heading = document.createElement("h2");
          heading.textContent = entry.title;
          const byline = document.createElement("p");
          byline.textContent = entry.creator;
          articles[i]?.prepend(heading);
          articles[i]?.append(byline);
        });
      }, entries);
      await settle(page);
      const problems = [...seen];
      if (await page.evaluate(() => window.__pwned !== undefined)) problems.push("__pwned set");
      const elements = await page.evaluate(() =>
        [...document.querySelectorAll(".description *")].map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(problems, path).toEqual([]);
      // The descriptions are text: as HTML they hold no element at all.
      expect(elements, path).toEqual([]);
    },
  );
});

test("our sitemaps, with the hostile titles, are well-formed XML", async ({ page }) => {
  await page.setContent("<!doctype html><title>xml</title>");
  for (const path of [
    "/news-sitemap.xml",
    `/sitemaps/articles-${new Date().toISOString().slice(0, 7)}.xml`,
    "/sitemaps/blog.xml",
  ]) {
    const xml = await (await page.request.get(path)).text();
    const error = await page.evaluate(
      (source) =>
        new DOMParser().parseFromString(source, "application/xml").querySelector("parsererror")
          ?.textContent ?? null,
      xml,
    );
    expect(error, path).toBeNull();
    expect(xml, path).toContain("<loc>");
  }
});
