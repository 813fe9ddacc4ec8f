import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, newsroomMedia, pictures } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { runIngestPass } from "../ingest/ingest";
import { sanitizeHtml } from "../ingest/sanitize";
import { storeArticles } from "../ingest/store";
import { startFixtureServer, type FixtureServer, type Handler } from "../ingest/test-server";
import type { NormalizedArticle } from "../ingest/types";
import { articleById, ensureFeeds } from "../news/repository";
import { pictureHealth } from "./health";
import { childPictureMaker } from "./picture-maker";
import { makeMissingCopiesAhead } from "./copies-ahead";
import { RECHECK_AFTER_MS, runPicturePass, type PicturePassOptions } from "./pass";
import { folderPictureStore, type PictureStore } from "./store";
import { acceptUpload } from "./upload";

reportSkippedPostgres();

const SITE = "https://ledger.example.org";
const T0 = new Date("2026-11-20T12:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 60 * 60_000;

let host: FixtureServer;
let photo: Buffer;
let otherPhoto: Buffer;
/** What /flaky.jpg answers: an error until the test lets it through. */
let flakyWorks = false;

/** A publisher's picture host, one per database run so that counts start at zero. */
async function startPictureHost() {
  host = await startFixtureServer();
  flakyWorks = false;
  photo = await sharp({
    create: { width: 1400, height: 933, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  otherPhoto = await sharp({
    create: { width: 900, height: 1200, channels: 3, background: { r: 20, g: 60, b: 140 } },
  })
    .jpeg()
    .toBuffer();
  const jpeg =
    (bytes: Buffer, etag: string): Handler =>
    (req, res) => {
      if (req.headers["if-none-match"] === etag) return res.writeHead(304).end();
      return res.writeHead(200, { "content-type": "image/jpeg", etag }).end(bytes);
    };
  host.route("/photo.jpg", jpeg(photo, '"p1"'));
  host.route("/same-photo-again.jpg", jpeg(photo, '"p1b"'));
  host.route("/other.jpg", jpeg(otherPhoto, '"o1"'));
  host.route("/body.jpg", jpeg(otherPhoto, '"b1"'));
  host.route("/flaky.jpg", (_req, res) =>
    flakyWorks
      ? res.writeHead(200, { "content-type": "image/jpeg" }).end(photo)
      : res.writeHead(503).end("busy"),
  );
  // Hostile answers: a script document and a page, both claiming to be JPEG.
  host.route("/logo.jpg", (_req, res) =>
    res
      .writeHead(200, { "content-type": "image/jpeg" })
      .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  );
  host.route("/page.jpg", (_req, res) =>
    res.writeHead(200, { "content-type": "image/jpeg" }).end("<!doctype html><title>x</title>"),
  );
}

function item(id: string, image: string | null, content = "<p>Text</p>"): NormalizedArticle {
  return {
    id,
    guid: `${SITE}/guid/${id}`,
    title: `Story ${id}`,
    excerpt: `About ${id}`,
    content: sanitizeHtml(content, `https://publisher.example.com/${id}`),
    image,
    category: "local-news",
    date: T0,
    author: "A. Writer",
    link: `https://publisher.example.com/${id}`,
  };
}

describe.each(testDatabases())("the picture pass on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let dir: string;
  let store: PictureStore;
  let changes = 0;
  let feedId: number;
  // As the web process runs the pass: sharp in a child process.
  const maker = childPictureMaker();

  const options = (overrides: Partial<PicturePassOptions> = {}): PicturePassOptions => ({
    database: handle,
    store,
    maker,
    logger: pino({ level: "silent" }),
    siteUrl: SITE,
    userAgent: "Ledger feed reader (+https://ledger.example.org)",
    allowPrivateAddresses: true,
    fetchOptions: { timeoutMs: 2000 },
    now: T0,
    ...overrides,
  });
  const pass = (overrides: Partial<PicturePassOptions> = {}) => runPicturePass(options(overrides));
  const pictureOf = async (id: string) =>
    (
      await handle.db
        .select({ picture: articles.picture })
        .from(articles)
        .where(eq(articles.id, id))
    )[0]?.picture ?? null;
  const row = async (url: string) =>
    (await handle.db.select().from(pictures).where(eq(pictures.url, url)))[0];

  beforeAll(async () => {
    await startPictureHost();
    handle = await database.open();
    await handle.migrate();
    await handle.onChange(() => changes++);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "picture-pass-"));
    store = folderPictureStore({ dir, maxBytes: 64 * 1024 * 1024 });
    const [registered] = await ensureFeeds(handle.db, [
      { url: "https://publisher.example.com/feed.xml", category: "local-news" },
    ]);
    feedId = registered?.feed.id ?? 0;
    await storeArticles(
      handle.db,
      feedId,
      [
        item("photo", host.url("/photo.jpg")),
        item("twin", host.url("/photo.jpg")),
        item("sample", `${SITE}/images/sample/harbor.svg`),
        // As a blog post names its picture: a path of our site.
        item("path", "/images/sample/beach.svg"),
        // A path of ours that is no picture, as a hostile feed could make one up.
        item("made-up", `${SITE}/x/onerror=alert(1)`),
        item("none", null),
        item("flaky", host.url("/flaky.jpg")),
        item("svg", host.url("/logo.jpg")),
        item("html", host.url("/page.jpg")),
        item(
          "body",
          host.url("/photo.jpg"),
          `<p>Lead</p><img src="${host.url("/photo.jpg")}"><figure><img src="${host.url("/body.jpg")}" alt="Inside"></figure><img src="${host.url("/missing.jpg")}">`,
        ),
      ],
      T0,
    );
  });
  afterAll(async () => {
    await host.close();
    await maker.close();
    await handle.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps each picture once, by its bytes, and gives the articles their pictures", async () => {
    const summary = await pass();
    expect(summary).toMatchObject({ listed: 10, failed: 5 });
    // One request per address, however many articles name it.
    expect(host.hits("/photo.jpg")).toBe(1);
    const picture = await pictureOf("photo");
    expect(picture).toEqual({
      kind: "stored",
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 1400,
      height: 933,
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
    });
    expect(await pictureOf("twin")).toEqual(picture);
    if (picture?.kind !== "stored") throw new Error("not stored");
    expect(Buffer.from((await store.getOriginal(picture.hash)) ?? [])).toEqual(photo);
    // The copies most pages ask for first are made already, so no reader waits for them: the
    // middle 16:9 of the 1400 × 933 photo, which the cards' 16:9 boxes show.
    for (const [file, width, height] of [
      ["wide-480.avif", 480, 270],
      ["wide-720.avif", 720, 405],
    ] as const) {
      const copy = await store.getVariant(picture.hash, file);
      const { width: w, height: h } = await sharp(copy ?? Buffer.alloc(0)).metadata();
      expect([w, h]).toEqual([width, height]);
    }
    expect(await store.getVariant(picture.hash, "720.avif")).toBeNull();
    expect(await store.getVariant(picture.hash, "wide-1600.avif")).toBeNull();
    // The request carried the feed reader's User-Agent.
    const request = host.requests.find((r) => r.path === "/photo.jpg");
    expect(request?.headers["user-agent"]).toContain("Ledger feed reader");
  });

  it("makes the copies made ahead for kept pictures that lack them, once", async () => {
    const picture = await pictureOf("photo");
    if (picture?.kind !== "stored") throw new Error("not stored");
    // As a store kept before the copies made ahead were wide ones: without them.
    for (const file of ["wide-480.avif", "wide-720.avif"]) {
      fs.rmSync(path.join(dir, picture.hash, file));
    }
    const run = () =>
      makeMissingCopiesAhead({ database: handle, store, maker, logger: pino({ level: "silent" }) });
    const first = await run();
    expect(first.made).toBeGreaterThanOrEqual(2);
    const copy = await store.getVariant(picture.hash, "wide-720.avif");
    expect(await sharp(copy ?? Buffer.alloc(0)).metadata()).toMatchObject({
      width: 720,
      height: 405,
    });
    expect(await run()).toEqual({ pictures: first.pictures, made: 0 });
  });

  it("shows a picture on our own origin as the site's file, without fetching it", async () => {
    expect(await pictureOf("sample")).toEqual({ kind: "site", src: "/images/sample/harbor.svg" });
    expect(await pictureOf("path")).toEqual({ kind: "site", src: "/images/sample/beach.svg" });
    // A path of ours outside the picture folder is no picture, and is not asked again.
    expect(await pictureOf("made-up")).toBeNull();
    expect((await row(`${SITE}/x/onerror=alert(1)`))?.nextAttemptAt).toBeNull();
    expect(await pictureOf("none")).toBeNull();
  });

  it("refuses a document or a page dressed as a JPEG, and keeps its article with the default", async () => {
    expect(await pictureOf("svg")).toBeNull();
    expect(await pictureOf("html")).toBeNull();
    expect((await row(host.url("/logo.jpg")))?.lastError).toMatch(/^Not a usable picture/);
    expect((await row(host.url("/page.jpg")))?.lastError).toMatch(/^Not a usable picture/);
    expect(await handle.db.select({ id: articles.id }).from(articles)).toHaveLength(10);
    expect(fs.readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name))).toHaveLength(2);

    // What `news pictures` tells the operator.
    const health = await pictureHealth(handle.db);
    expect(health).toMatchObject({ addresses: 9, kept: 2, site: 2, waiting: 0, failing: 5 });
    expect(health.failures.map((f) => f.url).sort()).toEqual(
      [
        ...["/flaky.jpg", "/logo.jpg", "/missing.jpg", "/page.jpg"].map((p) => host.url(p)),
        `${SITE}/x/onerror=alert(1)`,
      ].sort(),
    );
  });

  it("draws the body's kept pictures from our copies and leaves out the others", async () => {
    const article = await articleById(handle.db, "body");
    const content = article?.content ?? "";
    expect(content).not.toContain("127.0.0.1");
    // The top picture is not repeated; the figure's picture is drawn; the missing one left out.
    expect(content.match(/<picture>/g)).toHaveLength(1);
    expect(content).toContain('alt="Inside"');
    expect(content).toContain('width="900" height="1200"');
  });

  it("tries a failed picture again only when it is due, then takes it", async () => {
    const failed = await row(host.url("/flaky.jpg"));
    expect(failed?.consecutiveFailures).toBe(1);
    expect(failed?.lastError).toContain("503");
    const hits = host.hits("/flaky.jpg");

    flakyWorks = true;
    await pass({ now: later(60_000) });
    expect(host.hits("/flaky.jpg")).toBe(hits);
    expect(await pictureOf("flaky")).toBeNull();

    await pass({ now: later(HOUR) });
    expect(host.hits("/flaky.jpg")).toBe(hits + 1);
    expect(await pictureOf("flaky")).toMatchObject({ kind: "stored", width: 1400 });
    expect((await row(host.url("/flaky.jpg")))?.consecutiveFailures).toBe(0);
  });

  it("asks again for a kept picture a week later, conditionally, and keeps it on 304", async () => {
    const before = host.requests.length;
    const picture = await pictureOf("photo");
    await pass({ now: later(RECHECK_AFTER_MS + 2 * HOUR) });
    const asked = host.requests.slice(before).filter((r) => r.path === "/photo.jpg");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.headers["if-none-match"]).toBe('"p1"');
    expect(await pictureOf("photo")).toEqual(picture);
  });

  it("fetches a picture whose original left the store afresh, without validators", async () => {
    const picture = await pictureOf("photo");
    if (picture?.kind !== "stored") throw new Error("not stored");
    await store.remove(picture.hash);
    // /flaky.jpg is the same photo: were it asked first, it would put the original back and
    // /photo.jpg's validators would hold again. Not due in this pass.
    await handle.db
      .update(pictures)
      .set({ nextAttemptAt: later(10 * RECHECK_AFTER_MS) })
      .where(eq(pictures.url, host.url("/flaky.jpg")));
    const before = host.requests.length;
    await pass({ now: later(2 * RECHECK_AFTER_MS + 3 * HOUR) });
    const asked = host.requests.slice(before).filter((r) => r.path === "/photo.jpg");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.headers["if-none-match"]).toBeUndefined();
    expect(await store.hasOriginal(picture.hash)).toBe(true);
  });

  it("follows an article to its new picture and removes the one nothing names any more", async () => {
    const old = await row(host.url("/other.jpg"));
    expect(old).toBeUndefined();
    // "twin" moves from the shared photo to another; "flaky" to the photo itself.
    await storeArticles(
      handle.db,
      feedId,
      [item("twin", host.url("/other.jpg")), item("flaky", host.url("/same-photo-again.jpg"))],
      later(3 * RECHECK_AFTER_MS),
    );
    // Until the pass has the new picture, the article shows the default, not the old one.
    expect(await pictureOf("twin")).toBeNull();
    const photoHash = (await row(host.url("/photo.jpg")))?.hash;
    const flakyHash = (await row(host.url("/flaky.jpg")))?.hash;
    expect(flakyHash).toBe(photoHash);

    const summary = await pass({ now: later(3 * RECHECK_AFTER_MS + HOUR) });
    expect(await pictureOf("twin")).toMatchObject({ kind: "stored", width: 900, height: 1200 });
    // /flaky.jpg is named by nothing now: its row goes, but its original stays, as /photo.jpg keeps it.
    expect(summary.removed).toBe(1);
    expect(await row(host.url("/flaky.jpg"))).toBeUndefined();
    expect(await store.hasOriginal(photoHash ?? "")).toBe(true);
  });

  it("removes an original with the last address that names it", async () => {
    const hash = (await row(host.url("/logo.jpg")))?.hash;
    expect(hash).toBeNull();
    await handle.db.delete(articles).where(eq(articles.id, "twin"));
    const otherHash = (await row(host.url("/other.jpg")))?.hash ?? "";
    expect(await store.hasOriginal(otherHash)).toBe(true);
    // /body.jpg has the same bytes as /other.jpg and is still named by the "body" article.
    await pass({ now: later(3 * RECHECK_AFTER_MS + 2 * HOUR) });
    expect(await row(host.url("/other.jpg"))).toBeUndefined();
    expect(await store.hasOriginal(otherHash)).toBe(true);

    await storeArticles(
      handle.db,
      feedId,
      [item("body", host.url("/photo.jpg"), "<p>No pictures now</p>")],
      later(4 * RECHECK_AFTER_MS),
    );
    await pass({ now: later(4 * RECHECK_AFTER_MS + HOUR) });
    expect(await row(host.url("/body.jpg"))).toBeUndefined();
    expect(await store.hasOriginal(otherHash)).toBe(false);
  });

  it("refuses private addresses unless the setting allows them, and the article stays", async () => {
    await storeArticles(
      handle.db,
      feedId,
      [item("private", host.url("/other.jpg?private"))],
      later(5 * RECHECK_AFTER_MS),
    );
    const summary = await pass({
      now: later(5 * RECHECK_AFTER_MS + HOUR),
      allowPrivateAddresses: false,
    });
    expect(summary.failed).toBeGreaterThanOrEqual(1);
    expect((await row(host.url("/other.jpg?private")))?.lastError).toMatch(/address/i);
    expect(await pictureOf("private")).toBeNull();
  });

  it("runs inside an ingest pass, and the pages are told when pictures changed", async () => {
    await storeArticles(
      handle.db,
      feedId,
      [item("late", host.url("/other.jpg?late"))],
      later(6 * RECHECK_AFTER_MS),
    );
    const before = changes;
    const summary = await runIngestPass([], {
      database: handle,
      logger: pino({ level: "silent" }),
      siteUrl: SITE,
      siteName: "Ledger",
      now: () => later(6 * RECHECK_AFTER_MS + HOUR),
      pictures: { store, allowPrivateAddresses: true },
    });
    // This one, and the one refused before as private, tried again now that its time has come.
    expect(summary.pictures?.fetched).toBe(2);
    expect(await pictureOf("late")).toMatchObject({ kind: "stored" });
    await expect.poll(() => changes).toBeGreaterThan(before);
  });

  it("never removes an original a newsroom upload names, nor an own story's picture", async () => {
    const upload = await acceptUpload(otherPhoto, store, { maxBytes: 15 * 1024 * 1024, maker });
    if (!upload.ok) throw new Error(upload.error);
    await handle.db.insert(newsroomMedia).values({
      hash: upload.hash,
      width: upload.width,
      height: upload.height,
      color: upload.color,
      bytes: upload.bytes,
      uploadedBy: "editor@ledger.example.org",
    });
    const ownPicture = { kind: "stored" as const, ...upload, focus: { x: 30, y: 70 } };
    await handle.db.insert(articles).values({
      id: "our-own-story",
      category: "local-news",
      link: `${SITE}/article/our-own-story`,
      title: "Our own story",
      excerpt: "Written in the newsroom",
      content: "<p>Text</p>",
      author: "Staff",
      publishedAt: T0,
      own: true,
      picture: {
        kind: "stored",
        hash: upload.hash,
        width: upload.width,
        height: upload.height,
        color: upload.color,
        focus: ownPicture.focus,
      },
      picturesListed: true,
    });
    // A feed names the very bytes kept for the upload: the pass keeps them under the same hash.
    const bytes = (await store.getOriginal(upload.hash)) ?? new Uint8Array();
    host.route("/uploaded-too.jpg", (_req, res) =>
      res.writeHead(200, { "content-type": "image/jpeg" }).end(Buffer.from(bytes)),
    );
    await storeArticles(
      handle.db,
      feedId,
      [item("echo", host.url("/uploaded-too.jpg"))],
      later(7 * RECHECK_AFTER_MS),
    );
    await pass({ now: later(7 * RECHECK_AFTER_MS + HOUR) });
    expect((await row(host.url("/uploaded-too.jpg")))?.hash).toBe(upload.hash);

    // The feed story goes: its address with it, and the original would, but for the upload.
    await handle.db.delete(articles).where(eq(articles.id, "echo"));
    const summary = await pass({ now: later(7 * RECHECK_AFTER_MS + 2 * HOUR) });
    expect(summary.removed).toBeGreaterThanOrEqual(1);
    expect(await row(host.url("/uploaded-too.jpg"))).toBeUndefined();
    expect(await store.hasOriginal(upload.hash)).toBe(true);
    // The own story names no feed address: its picture is the upload, focus and all.
    expect(await pictureOf("our-own-story")).toEqual({
      kind: "stored",
      hash: upload.hash,
      width: upload.width,
      height: upload.height,
      color: upload.color,
      focus: { x: 30, y: 70 },
    });
  });
});
