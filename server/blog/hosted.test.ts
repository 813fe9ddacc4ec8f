import type http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { createHostedBlogSource, type HostedBlogOptions } from "./hosted";
import { BlogSourceError } from "./source";

/** The hosted blog API, as the spec's §7 describes it, on a real local HTTP server. */

const KEY = "anon-key-for-tests-3f9a";
const LIST = "/functions/v1/get_metainfo";
const DETAILS = "/functions/v1/get_details";

let server: FixtureServer;
/** The requests the fake API saw, with their whole address. */
let seen: { url: URL; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());
beforeEach(() => {
  seen = [];
});

function source(options: Partial<HostedBlogOptions> = {}) {
  return createHostedBlogSource({
    apiUrl: server.url("/functions/v1"),
    apiKey: KEY,
    siteUrl: "https://www.news.example.org",
    ...options,
  });
}

/** Answers `body` (JSON unless a string) with `status`, after `delayMs`. */
function answer(path: string, status: number, body: unknown, delayMs = 0) {
  server.route(path, async (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({
      url: new URL(req.url ?? "/", "http://127.0.0.1"),
      authorization: req.headers.authorization,
    });
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}

const DETAIL = {
  slug: "harbor-walk",
  metaTitle: "A Walk Along the Harbor",
  metaDescription: "Where to start, where to stop for tacos.",
  date: "2025-06-10",
  blog: '<p>Start at the <a href="https://harbor.example/">pier</a>.</p><script>alert(1)</script><img src="x" onerror="alert(1)"><iframe src="https://evil.example/"></iframe>',
  pinterestImageLink: "https://i.pinimg.example/originals/harbor.jpg",
  youtubeShortsUrl: "https://www.youtube.com/shorts/AbCdEfGhIjK",
  shortTailKeywords: "harbor, walks",
  longTailKeywords: "harbor walk san diego",
};

const POST = {
  slug: "harbor-walk",
  title: "A Walk Along the Harbor",
  description: "Where to start, where to stop for tacos.",
  date: "2025-06-10T12:00:00.000Z",
  image: "https://i.pinimg.example/originals/harbor.jpg",
  author: null,
  html: '<p>Start at the <a href="https://harbor.example/" target="_blank" rel="noopener noreferrer">pier</a>.</p><img src="https://www.news.example.org/x" loading="lazy" />',
  video: "https://www.youtube.com/shorts/AbCdEfGhIjK",
  shortTailKeywords: "harbor, walks",
  longTailKeywords: "harbor walk san diego",
};

describe("the list (get_metainfo)", () => {
  it("asks with the site's domain without www., the page and the bearer key", async () => {
    answer(LIST, 200, {
      blogs: [
        {
          id: 7,
          slug: "harbor-walk",
          metaTitle: "A Walk Along the Harbor",
          metaDescription: "Tacos.",
          pinterestImageLink: "https://i.pinimg.example/a.jpg",
        },
        { id: "8", slug: "bare", metaTitle: null, metaDescription: null, pinterestImageLink: null },
        { slug: "no-extras" },
        { slug: "bad-image", metaTitle: "Bad image", pinterestImageLink: "javascript:alert(1)" },
      ],
      total: 14,
    });
    const page = await source().list(2);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url.pathname).toBe(LIST);
    expect([...(seen[0]?.url.searchParams ?? [])]).toEqual([
      ["domain", "news.example.org"],
      ["page", "2"],
    ]);
    expect(seen[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(page).toEqual({
      total: 14,
      posts: [
        {
          slug: "harbor-walk",
          title: "A Walk Along the Harbor",
          description: "Tacos.",
          image: "https://i.pinimg.example/a.jpg",
          date: null,
        },
        { slug: "bare", title: "bare", description: "", image: null, date: null },
        { slug: "no-extras", title: "no-extras", description: "", image: null, date: null },
        { slug: "bad-image", title: "Bad image", description: "", image: null, date: null },
      ],
    });
  });

  it("reads an empty blog", async () => {
    answer(LIST, 200, { blogs: [], total: 0 });
    expect(await source().list(1)).toEqual({ posts: [], total: 0 });
  });

  it.each([404, 500, 401])("answers HTTP %i with the spec's message", async (status) => {
    answer(LIST, status, { message: "nope" });
    await expect(source().list(1)).rejects.toThrow(new BlogSourceError("Failed to fetch blogs"));
  });

  it("refuses an answer that is not JSON", async () => {
    answer(LIST, 200, "<html>Gateway</html>");
    await expect(source().list(1)).rejects.toThrow(
      new BlogSourceError(
        "Failed to fetch blogs: the blog service sent an answer that is not JSON",
      ),
    );
  });

  it.each([
    ["no total", { blogs: [] }],
    ["total as text", { blogs: [], total: "13" }],
    ["negative total", { blogs: [], total: -1 }],
    ["blogs not a list", { blogs: "none", total: 0 }],
    ["a post without slug", { blogs: [{ metaTitle: "x" }], total: 1 }],
    ["a slug of the wrong type", { blogs: [{ slug: 5 }], total: 1 }],
    ["a title of the wrong type", { blogs: [{ slug: "a", metaTitle: ["x"] }], total: 1 }],
    ["null", null],
    ["a list", []],
  ])("refuses an answer of the wrong shape: %s", async (_, body) => {
    answer(LIST, 200, body);
    await expect(source().list(1)).rejects.toThrow(
      new BlogSourceError(
        "Failed to fetch blogs: the blog service sent an answer of an unexpected shape",
      ),
    );
  });

  it("gives up on a slow answer after the timeout", async () => {
    answer(LIST, 200, { blogs: [], total: 0 }, 1_000);
    const started = Date.now();
    const failure = await source({ timeoutMs: 100 })
      .list(1)
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(900);
    expect(failure).toEqual(new BlogSourceError("Failed to fetch blogs"));
    expect((failure as Error).cause).toMatchObject({ name: "TimeoutError" });
  });

  it("fails with the spec's message when the service cannot be reached", async () => {
    const gone = await startFixtureServer();
    const apiUrl = gone.url("/functions/v1");
    await gone.close();
    await expect(source({ apiUrl }).list(1)).rejects.toThrow(
      new BlogSourceError("Failed to fetch blogs"),
    );
  });

  it("never puts the key in what it reports", async () => {
    answer(LIST, 500, "");
    const failure = await source()
      .list(1)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BlogSourceError);
    const error = failure as BlogSourceError;
    expect(`${error.message} ${String(error.cause)} ${JSON.stringify(error)}`).not.toContain(KEY);
  });
});

describe("a post (get_details)", () => {
  it("asks for the slug with the bearer key and reads the post, its body sanitised", async () => {
    answer(DETAILS, 200, DETAIL);
    expect(await source().get("harbor-walk")).toEqual(POST);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url.pathname).toBe(DETAILS);
    expect([...(seen[0]?.url.searchParams ?? [])]).toEqual([["slug", "harbor-walk"]]);
    expect(seen[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it("encodes the slug", async () => {
    answer(DETAILS, 200, DETAIL);
    await source().get("a b&c=d");
    expect(seen[0]?.url.searchParams.get("slug")).toBe("a b&c=d");
  });

  it.each([
    ["wrapped in data", { data: DETAIL }],
    ["in an array of one", [DETAIL]],
    ["in an array in data", { data: [DETAIL] }],
  ])("accepts the post %s", async (_, body) => {
    answer(DETAILS, 200, body);
    expect(await source().get("harbor-walk")).toEqual(POST);
  });

  it("tolerates missing and null fields", async () => {
    answer(DETAILS, 200, {
      metaTitle: "Only a title",
      metaDescription: null,
      date: null,
      blog: null,
      pinterestImageLink: null,
      youtubeShortsUrl: null,
    });
    expect(await source().get("only-title")).toEqual({
      slug: "only-title",
      title: "Only a title",
      description: "",
      date: null,
      image: null,
      author: null,
      html: "",
      video: null,
      shortTailKeywords: "",
      longTailKeywords: "",
    });
  });

  it("reads a date and time, and drops a date it cannot read", async () => {
    answer(DETAILS, 200, { ...DETAIL, date: "2025-06-10 21:30:00+00" });
    expect((await source().get("harbor-walk"))?.date).toBe("2025-06-10T21:30:00.000Z");
    answer(DETAILS, 200, { ...DETAIL, date: "last Tuesday" });
    expect((await source().get("harbor-walk"))?.date).toBeNull();
  });

  it.each([
    ["null", null],
    ["an empty object", {}],
    ["an empty array", []],
    ["data null", { data: null }],
    ["data empty", { data: [] }],
    ["no post fields", { slug: "", metaTitle: null, blog: "" }],
  ])("answers null when there is no data: %s", async (_, body) => {
    answer(DETAILS, 200, body);
    expect(await source().get("missing")).toBeNull();
  });

  it.each([404, 500])("answers HTTP %i with the spec's message", async (status) => {
    answer(DETAILS, status, { error: "x" });
    await expect(source().get("harbor-walk")).rejects.toThrow(
      new BlogSourceError("Failed to fetch blog details"),
    );
  });

  it("refuses an answer that is not JSON", async () => {
    answer(DETAILS, 200, "{ not json");
    await expect(source().get("harbor-walk")).rejects.toThrow(
      new BlogSourceError(
        "Failed to fetch blog details: the blog service sent an answer that is not JSON",
      ),
    );
  });

  it.each([
    ["a title of the wrong type", { ...DETAIL, metaTitle: 42 }],
    ["a body of the wrong type", { ...DETAIL, blog: { html: "<p>x</p>" } }],
    ["keywords as a list", { ...DETAIL, shortTailKeywords: ["a", "b"] }],
    ["several posts", [DETAIL, DETAIL]],
    ["text", "just text"],
  ])("refuses an answer of the wrong shape: %s", async (_, body) => {
    answer(DETAILS, 200, typeof body === "string" ? JSON.stringify(body) : body);
    await expect(source().get("harbor-walk")).rejects.toThrow(
      new BlogSourceError(
        "Failed to fetch blog details: the blog service sent an answer of an unexpected shape",
      ),
    );
  });

  it("gives up on a slow answer after the timeout", async () => {
    answer(DETAILS, 200, DETAIL, 1_000);
    await expect(source({ timeoutMs: 100 }).get("harbor-walk")).rejects.toThrow(
      new BlogSourceError("Failed to fetch blog details"),
    );
  });
});

describe("the cache", () => {
  it("answers a repeated list page or post without asking again", async () => {
    answer(LIST, 200, { blogs: [{ slug: "a" }], total: 1 });
    answer(DETAILS, 200, DETAIL);
    const blog = source();
    await blog.list(1);
    await blog.list(1);
    await Promise.all([blog.get("harbor-walk"), blog.get("harbor-walk")]);
    expect(seen.map((s) => s.url.pathname)).toEqual([LIST, DETAILS]);
    await blog.list(2);
    expect(seen).toHaveLength(3);
  });

  it("keeps no-data answers too", async () => {
    answer(DETAILS, 200, {});
    const blog = source();
    expect(await blog.get("missing")).toBeNull();
    expect(await blog.get("missing")).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it("does not keep failures", async () => {
    answer(LIST, 500, "");
    const blog = source();
    await expect(blog.list(1)).rejects.toThrow(BlogSourceError);
    answer(LIST, 200, { blogs: [], total: 0 });
    expect(await blog.list(1)).toEqual({ posts: [], total: 0 });
    expect(seen).toHaveLength(2);
  });

  it("asks again once an answer is older than the time to live", async () => {
    answer(LIST, 200, { blogs: [], total: 0 });
    const blog = source({ cacheTtlMs: 50 });
    await blog.list(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await blog.list(1);
    expect(seen).toHaveLength(2);
  });

  it("holds at most its size, dropping the oldest", async () => {
    answer(DETAILS, 200, DETAIL);
    const blog = source({ cacheSize: 2 });
    for (const slug of ["a", "b", "c", "c", "b", "a"]) await blog.get(slug);
    expect(seen.map((s) => s.url.searchParams.get("slug"))).toEqual(["a", "b", "c", "a"]);
  });
});
