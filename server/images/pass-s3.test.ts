import { eq } from "drizzle-orm";
import { pino } from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, pictures } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { sanitizeHtml } from "../ingest/sanitize";
import { storeArticles } from "../ingest/store";
import { startFixtureServer, type FixtureServer } from "../ingest/test-server";
import { ensureFeeds } from "../news/repository";
import { startS3Server, type TestS3Server } from "../test-support/s3-server";
import { runPicturePass } from "./pass";
import { s3PictureStore } from "./s3-store";

/**
 * The picture pass over a bucket that does not answer: nothing is marked kept that the bucket
 * did not take, and the picture is taken on the next pass once the bucket is back.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
const T0 = new Date("2026-11-20T12:00:00Z");
let handle: Awaited<ReturnType<typeof database.open>>;
let host: FixtureServer;
let s3: TestS3Server;

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  host = await startFixtureServer();
  const photo = await sharp({
    create: { width: 800, height: 600, channels: 3, background: "#a52" },
  })
    .jpeg()
    .toBuffer();
  host.route("/photo.jpg", (_req, res) =>
    res.writeHead(200, { "content-type": "image/jpeg" }).end(photo),
  );
  s3 = await startS3Server();
  const [registered] = await ensureFeeds(handle.db, [
    { url: "https://publisher.example.com/feed.xml", category: "local-news" },
  ]);
  await storeArticles(
    handle.db,
    registered?.feed.id ?? 0,
    [
      {
        id: "harbor",
        guid: "https://publisher.example.com/guid/harbor",
        title: "Harbor",
        excerpt: "About the harbor",
        content: sanitizeHtml("<p>Text</p>", "https://publisher.example.com/harbor"),
        image: host.url("/photo.jpg"),
        category: "local-news",
        date: T0,
        author: "A. Writer",
        link: "https://publisher.example.com/harbor",
      },
    ],
    T0,
  );
});

afterAll(async () => {
  await host.close();
  await s3.close();
  await handle.dispose();
});

describe("the picture pass over a bucket", () => {
  it("marks nothing kept while the bucket is down, and keeps the picture once it is back", async () => {
    const store = s3PictureStore(s3.storeConfig(), { pauseAfterFailureMs: 100 });
    const pass = () =>
      runPicturePass({
        database: handle,
        store,
        logger: pino({ level: "silent" }),
        siteUrl: "https://ledger.example.org",
        userAgent: "Ledger feed reader",
        allowPrivateAddresses: true,
        now: T0,
      });
    const pictureOf = async () =>
      (await handle.db.select().from(articles).where(eq(articles.id, "harbor")))[0]?.picture;

    await s3.stop();
    try {
      expect(await pass()).toMatchObject({ fetched: 0, failed: 1 });
      expect(await pictureOf()).toBeNull();
      const [row] = await handle.db.select().from(pictures);
      expect(row).toMatchObject({ hash: null, picture: null, nextAttemptAt: null });
    } finally {
      await s3.start();
    }
    await new Promise((resolve) => setTimeout(resolve, 150));

    expect(await pass()).toMatchObject({ fetched: 1, failed: 0 });
    const picture = await pictureOf();
    if (picture?.kind !== "stored") throw new Error("the picture was not kept");
    expect(await store.hasOriginal(picture.hash)).toBe(true);
  });
});
