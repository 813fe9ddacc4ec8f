/**
 * The hostile-input table (fixtures/hostile/payloads.ts) through the pure functions every outside text
 * passes on its way to a page: feed parsing, normalising and sanitising, the local and the hosted blog,
 * the JSON-LD builder and our RSS output. e2e/hostile.spec.ts opens the resulting pages in a browser;
 * this reads the same output with happy-dom's HTML parser, payload by payload, in a few seconds.
 */
import type http from "node:http";
import { Window } from "happy-dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Article } from "../../shared/article";
import { jsonLdText } from "../../shared/json-ld";
import { hostileFeeds, hostilePosts, HOSTILE_ORIGIN } from "../../fixtures/hostile/documents";
import { PAYLOADS, payloadsFor, type Sink } from "../../fixtures/hostile/payloads";
import { createHostedBlogSource } from "../blog/hosted";
import { readPostFile } from "../blog/local";
import { ContentError } from "../content/read";
import type { BlogPost } from "../blog/source";
import { normalizeItem } from "../ingest/normalize";
import { parseFeed } from "../ingest/parse";
import { sanitizeHtml } from "../ingest/sanitize";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import type { NormalizedArticle } from "../ingest/types";
import { rssFeed } from "../seo/xml";

/** A blog post's fields that are plain text wherever they are shown. */
const POST_TEXT_FIELDS = ["title", "description", "shortTailKeywords", "longTailKeywords"] as const;

const SITE_URL = "https://news.example.org";
const NOW = new Date("2026-11-20T12:00:00Z");

// The sanitiser's allowlist (server/ingest/sanitize.ts), as a browser would find it in the DOM.
const ALLOWED_TAGS = new Set(
  "p br a ul ol li em strong b i h2 h3 h4 h5 h6 blockquote figure figcaption img span code pre".split(
    " ",
  ),
);
const ALLOWED_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ["href", "target", "rel"],
  img: ["src", "alt", "width", "height", "loading"],
};

/** What a browser would find in `html` that is outside the allowlist or points at script. */
function htmlProblems(html: string): string[] {
  const window = new Window();
  window.document.body.innerHTML = html;
  const problems: string[] = [];
  for (const el of window.document.body.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) problems.push(`<${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(attr.name)) {
        problems.push(`<${tag} ${attr.name}>`);
      }
    }
    const address = el.getAttribute("href") ?? el.getAttribute("src");
    if (address !== null && !/^(?:https?:\/\/|mailto:)/.test(address)) {
      problems.push(`<${tag}> to ${address}`);
    }
  }
  void window.happyDOM.close();
  return problems;
}

/** The elements `html` makes, for text that must make none. */
function elementsIn(html: string): string[] {
  const window = new Window();
  window.document.body.innerHTML = html;
  const tags = Array.from(window.document.body.querySelectorAll("*"), (el) => el.tagName);
  void window.happyDOM.close();
  return tags;
}

// Characters plain text shown on a page never holds: controls (NUL above all, which PostgreSQL
// refuses), bidi overrides, zero-width space and BOM, lone surrogates.
const UNWANTED =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2060\u2066-\u2069\ufeff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

function expectPlainText(value: string, field: string): void {
  expect(UNWANTED.test(value), `${field}: ${JSON.stringify(value)}`).toBe(false);
}

function expectHttpUrl(value: string | null, field: string): void {
  if (value !== null) expect(new URL(value).protocol, `${field}: ${value}`).toMatch(/^https?:$/);
}

/** Every item of every hostile feed, normalised as ingest does, by feed format and payload name. */
function normalisedItems(): { feed: string; name: string; article: NormalizedArticle | null }[] {
  return hostileFeeds(NOW).flatMap((feed) => {
    const parsed = parseFeed(new TextEncoder().encode(feed.xml));
    return parsed.items.map((item) => ({
      feed: feed.file,
      name: /\/(?:rss|atom)\/([a-z0-9-]+)$/.exec(item.guid ?? "")?.[1] ?? "?",
      article: normalizeItem(item, {
        feedUrl: `${HOSTILE_ORIGIN}/${feed.file}`,
        category: feed.category,
        baseUrl: `${HOSTILE_ORIGIN}/`,
      }),
    }));
  });
}

const ITEMS = normalisedItems();

describe("hostile feed items", () => {
  it("every payload with a feed sink is an item of both feeds", () => {
    const feedSinks: Sink[] = ["title", "excerpt", "body", "author", "image", "link"];
    const names = new Set(feedSinks.flatMap((sink) => payloadsFor(sink).map((p) => p.name)));
    expect(ITEMS.length).toBe(names.size * 2);
    expect(new Set(ITEMS.map((i) => i.name))).toEqual(names);
  });

  it.each(ITEMS.map((i) => [`${i.feed} ${i.name}`, i.article] as const))(
    "%s: an article with an allowlisted body, plain text and web addresses",
    (_name, article) => {
      // Every item has an http(s) guid, so even a hostile link leaves an article.
      expect(article).not.toBeNull();
      if (article === null) return;
      expect(htmlProblems(article.content)).toEqual([]);
      // The stored body is what the page writes: reading it again changes nothing.
      expect(sanitizeHtml(article.content, SITE_URL)).toBe(article.content);
      expectPlainText(article.title, "title");
      expectPlainText(article.excerpt, "excerpt");
      expectPlainText(article.author, "author");
      expect(article.guid ?? "").not.toContain("\0");
      expect(article.content).not.toContain("\0");
      expectHttpUrl(article.link, "link");
      expectHttpUrl(article.image, "image");
    },
  );
});

describe("hostile blog posts", () => {
  it.each(hostilePosts(NOW).map((post) => [post.slug, post] as const))(
    "%s: refused, or read into allowlisted HTML and plain text",
    (_slug, post) => {
      let read: BlogPost;
      try {
        read = readPostFile(`${post.slug}.md`, post.source, SITE_URL);
      } catch (error) {
        expect(error).toBeInstanceOf(ContentError);
        expect(post.refused).toBe(true);
        return;
      }
      expect(post.refused).toBe(false);
      expect(htmlProblems(read.html)).toEqual([]);
      for (const field of POST_TEXT_FIELDS) {
        expectPlainText(read[field], field);
      }
      expectPlainText(read.author ?? "", "author");
      if (read.image !== null && !read.image.startsWith("/")) expectHttpUrl(read.image, "image");
    },
  );
});

describe("hostile posts from the hosted blog API", () => {
  let server: FixtureServer;
  const bodies = new Map(PAYLOADS.map((p) => [`hostile-${p.name}`, p]));

  beforeAll(async () => {
    server = await startFixtureServer();
    server.route("/functions/v1/get_details", (req: http.IncomingMessage, res) => {
      const slug = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("slug") ?? "";
      const payload = bodies.get(slug)?.payload ?? "";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          slug,
          metaTitle: payload,
          metaDescription: payload,
          author: payload,
          blog: payload,
          pinterestImageLink: payload,
          youtubeShortsUrl: payload,
          shortTailKeywords: payload,
          longTailKeywords: payload,
        }),
      );
    });
  });
  afterAll(() => server.close());

  it("makes every field of every payload plain text, allowlisted HTML or an http(s) address", async () => {
    const source = createHostedBlogSource({
      apiUrl: server.url("/functions/v1"),
      apiKey: "key",
      siteUrl: SITE_URL,
    });
    for (const slug of bodies.keys()) {
      const post = await source.get(slug);
      expect(post, slug).not.toBeNull();
      if (post === null) continue;
      expect(htmlProblems(post.html), slug).toEqual([]);
      for (const field of POST_TEXT_FIELDS) {
        expectPlainText(post[field], `${slug} ${field}`);
      }
      expectPlainText(post.author ?? "", `${slug} author`);
      if (post.image !== null && !post.image.startsWith("/")) expectHttpUrl(post.image, slug);
    }
  });
});

describe("hostile text in what we write", () => {
  it.each(PAYLOADS.map((p) => [p.name, p.payload] as const))(
    "%s: JSON-LD keeps it as text that cannot close the script",
    (_name, payload) => {
      const text = jsonLdText({ headline: payload });
      expect(text).not.toMatch(/[<>&\u2028\u2029]/);
      expect((JSON.parse(text) as { headline: string }).headline).toBe(payload);
    },
  );

  it("our RSS descriptions hold no markup for a reader to render, whatever the excerpt says", () => {
    const articles: Article[] = ITEMS.flatMap(({ article }) =>
      article === null
        ? []
        : [
            {
              ...article,
              picture: null,
              date: NOW.toISOString(),
              excerpt: `${article.title} ${article.excerpt}`,
            },
          ],
    );
    // Excerpts that spell out markup, as the payloads do once read as text.
    const [first] = articles;
    if (first === undefined) throw new Error("no articles");
    articles.push(
      ...PAYLOADS.map((p, i) => ({
        ...first,
        id: `raw-${i}`,
        title: p.payload,
        excerpt: p.payload,
        author: p.payload,
      })),
    );
    const xml = rssFeed({
      siteUrl: SITE_URL,
      selfPath: "/rss.xml",
      pagePath: "/",
      title: "Test",
      description: "Test",
      articles,
      categoryName: () => "Local News",
    });
    const window = new Window();
    const doc = new window.DOMParser().parseFromString(xml, "application/xml");
    expect(doc.querySelector("parsererror")).toBeNull();
    const descriptions = Array.from(
      doc.getElementsByTagName("description"),
      (el) => el.textContent ?? "",
    );
    void window.happyDOM.close();
    expect(descriptions.length).toBe(articles.length + 1);
    for (const description of descriptions)
      expect(elementsIn(description), description).toEqual([]);
  });
});
