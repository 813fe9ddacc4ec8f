import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, pictures } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { sanitizeHtml } from "../ingest/sanitize";
import { storeArticles } from "../ingest/store";
import { startFixtureServer, type FixtureServer, type Handler } from "../ingest/test-server";
import type { NormalizedArticle } from "../ingest/types";
import { ensureFeeds } from "../news/repository";
import { inlinePictureMaker } from "./picture-maker";
import { runPicturePass, type PicturePassOptions } from "./pass";
import { folderPictureStore, type PictureStore } from "./store";

/**
 * What one feed can do to the picture pass: an address no index can hold, and pictures that take
 * long. Neither may stop the pictures of other articles and feeds.
 */

reportSkippedPostgres();

const SITE = "https://ledger.example.org";
const T0 = new Date("2026-11-20T12:00:00Z");
const HOUR = 60 * 60_000;

let host: FixtureServer;
let photo: Buffer;
/** While true, the slow pictures' host takes the request and never answers. */
let hanging = true;

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

beforeAll(async () => {
  host = await startFixtureServer();
  photo = await sharp({
    create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  const answer: Handler = (_req, res) =>
    res.writeHead(200, { "content-type": "image/jpeg" }).end(photo);
  for (const path of ["/photo.jpg", "/a.jpg", "/c.jpg", "/d.jpg", "/y.jpg", "/z.jpg"]) {
    host.route(path, answer);
  }
  const slow: Handler = (req, res) => (hanging ? undefined : answer(req, res));
  for (const path of ["/b.jpg", "/slow1.jpg", "/slow2.jpg", "/slow3.jpg"]) host.route(path, slow);
});
afterAll(() => host.close());

describe.each(testDatabases())("the picture pass on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let dir: string;
  let store: PictureStore;
  let feedIds: number[] = [];

  const options = (overrides: Partial<PicturePassOptions> = {}): PicturePassOptions => ({
    database: handle,
    store,
    maker: inlinePictureMaker(),
    logger: pino({ level: "silent" }),
    siteUrl: SITE,
    userAgent: "Ledger feed reader (+https://ledger.example.org)",
    allowPrivateAddresses: true,
    now: T0,
    ...overrides,
  });
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
    handle = await database.open();
    await handle.migrate();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "picture-pass-limits-"));
    store = folderPictureStore({ dir, maxBytes: 64 * 1024 * 1024 });
    const registered = await ensureFeeds(handle.db, [
      { url: "https://publisher.example.com/feed.xml", category: "local-news" },
      { url: "https://other.example.com/feed.xml", category: "local-news" },
    ]);
    feedIds = registered.map((r) => r.feed.id);
  });
  afterAll(async () => {
    await handle.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("an address no index can hold", () => {
    // As rows stored before ingest capped addresses held them: random, so it does not compress
    // under the btree's limit of about 2,700 bytes a row.
    const long = `https://publisher.example.com/${randomBytes(6750).toString("base64url")}.jpg`;
    // Under the cap in characters, but three bytes each: only rows written outside ingest hold one.
    const wide = `https://publisher.example.com/${Array.from({ length: 1900 }, () =>
      String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 0x5000)),
    ).join("")}.jpg`;

    it("is left out, and the other articles' pictures are kept, pass after pass", async () => {
      expect(long.length).toBeGreaterThan(9000);
      await storeArticles(
        handle.db,
        feedIds[0] ?? 0,
        [
          item("long-top", long),
          item("long-body", null, `<p>Lead</p><img src="${long}">`),
          item("fine", host.url("/photo.jpg?fine")),
        ],
        T0,
      );
      const summary = await runPicturePass(options());
      expect(summary).toMatchObject({ listed: 3, fetched: 1, failed: 0 });
      expect(await pictureOf("fine")).toMatchObject({ kind: "stored", width: 320 });
      expect(await pictureOf("long-top")).toBeNull();
      expect(await row(long)).toBeUndefined();

      await storeArticles(
        handle.db,
        feedIds[0] ?? 0,
        [item("later", host.url("/photo.jpg?later"))],
        new Date(T0.getTime() + HOUR),
      );
      await runPicturePass(options({ now: new Date(T0.getTime() + HOUR) }));
      expect(await pictureOf("later")).toMatchObject({ kind: "stored", width: 320 });
    });

    it("fails alone when the database refuses one article's pictures", async () => {
      await storeArticles(
        handle.db,
        feedIds[0] ?? 0,
        [item("wide", wide), item("beside", host.url("/photo.jpg?beside"))],
        new Date(T0.getTime() + 2 * HOUR),
      );
      const now = new Date(T0.getTime() + 3 * HOUR);
      const summary = await runPicturePass(options({ now }));
      expect(summary.listed).toBe(1);
      expect(await pictureOf("beside")).toMatchObject({ kind: "stored", width: 320 });
      // Left to be listed again, logged each pass, and no pass stops for it.
      const [wideRow] = await handle.db
        .select({ listed: articles.picturesListed })
        .from(articles)
        .where(eq(articles.id, "wide"));
      expect(wideRow?.listed).toBe(false);
      await expect(runPicturePass(options({ now }))).resolves.toMatchObject({ listed: 0 });
    });
  });
  describe("time", () => {
    // One at a time, so that what is reached before the time runs out is known.
    const serial = { global: 1, perHost: 1 };
    const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
    /** Requests for these paths from here on (the host serves both databases' runs). */
    const counting = (...paths: string[]) => {
      const before = paths.map((path) => host.hits(path));
      return () => paths.map((path, i) => host.hits(path) - (before[i] ?? 0));
    };
    const untouched = async (url: string) => {
      const picture = await row(url);
      expect(picture).toMatchObject({ checkedAt: null, lastError: null, consecutiveFailures: 0 });
    };

    it("stops the pass when its time is spent and takes the rest in the next pass", async () => {
      hanging = true;
      const [a, b, c, d] = ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"].map((p) => host.url(p));
      await storeArticles(
        handle.db,
        feedIds[0] ?? 0,
        [item("a", a ?? ""), item("b", b ?? ""), item("c", c ?? ""), item("d", d ?? "")],
        at(4),
      );
      const asked = counting("/b.jpg", "/c.jpg", "/d.jpg");
      const summary = await runPicturePass(
        options({
          now: at(5),
          limits: serial,
          // The picture that does not answer is cut off by the pass's time, not by its own.
          fetchOptions: { timeoutMs: 60_000 },
          budget: { passMs: 3000, feedMs: 60_000 },
        }),
      );
      expect(summary).toMatchObject({ fetched: 1, failed: 0, deferred: 3 });
      expect(await pictureOf("a")).toMatchObject({ kind: "stored" });
      // Asked and cut off, then not reached: none of them counts as failed.
      expect(asked()).toEqual([1, 0, 0]);
      for (const url of [b, c, d]) await untouched(url ?? "");

      hanging = false;
      const next = await runPicturePass(options({ now: at(5.5), limits: serial }));
      expect(next).toMatchObject({ fetched: 3, failed: 0, deferred: 0 });
      for (const id of ["b", "c", "d"]) {
        expect(await pictureOf(id)).toMatchObject({ kind: "stored" });
      }
    });

    it("leaves a feed's pictures for the next pass when its time is spent, not the others'", async () => {
      hanging = true;
      const slow = ["/slow1.jpg", "/slow2.jpg", "/slow3.jpg"].map((p) => host.url(p));
      await storeArticles(
        handle.db,
        feedIds[0] ?? 0,
        slow.map((url, i) => item(`slow${i + 1}`, url)),
        at(6),
      );
      // The other feed's pictures come after the slow ones, turn by turn.
      await storeArticles(
        handle.db,
        feedIds[1] ?? 0,
        [item("y", host.url("/y.jpg")), item("z", host.url("/z.jpg"))],
        at(6),
      );
      const asked = counting("/slow1.jpg", "/slow2.jpg", "/slow3.jpg");
      const summary = await runPicturePass(
        options({
          now: at(7),
          limits: serial,
          fetchOptions: { timeoutMs: 60_000 },
          budget: { passMs: 60_000, feedMs: 1000 },
        }),
      );
      expect(summary).toMatchObject({ fetched: 2, failed: 0, deferred: 3 });
      expect(await pictureOf("y")).toMatchObject({ kind: "stored" });
      expect(await pictureOf("z")).toMatchObject({ kind: "stored" });
      expect(asked()).toEqual([1, 0, 0]);
      for (const url of slow) await untouched(url);

      hanging = false;
      const next = await runPicturePass(options({ now: at(7.5), limits: serial }));
      expect(next).toMatchObject({ fetched: 3, failed: 0, deferred: 0 });
      expect(await pictureOf("slow3")).toMatchObject({ kind: "stored" });
    });
  });
});
