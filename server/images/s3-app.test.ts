import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { startS3Server, startSilentServer, type TestS3Server } from "../test-support/s3-server";
import { s3PictureStore } from "./s3-store";

/**
 * The site with its pictures in an S3-compatible bucket (PICTURE_STORE=s3, s3rver on loopback):
 * served and copied through the bucket, and a bucket that is down or hangs costs the pictures a
 * quick 503, never the pages.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let s3: TestS3Server;
let hash: string;

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  s3 = await startS3Server();
  const photo = sharp({ create: { width: 400, height: 300, channels: 3, background: "#246" } });
  hash = await s3PictureStore(s3.storeConfig()).putOriginal(await photo.jpeg().toBuffer());
});

afterAll(async () => {
  await handle.dispose();
  await s3.close();
});

const timed = async (url: string) => {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { response, ms: performance.now() - started };
};

describe("pictures in a bucket", { timeout: 60_000 }, () => {
  it("are served from it, their copies kept there for every machine", async () => {
    const app = await startTestApp(handle, s3.env());
    try {
      const { response } = await timed(`${app.base}/images/${hash}/320.webp`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
      expect(await s3PictureStore(s3.storeConfig()).getVariant(hash, "320.webp")).not.toBeNull();
    } finally {
      await app.close();
    }
  });

  it("answer 503 at once while it is down, pages still render, and come back with it", async () => {
    const app = await startTestApp(handle, s3.env());
    try {
      await s3.stop();
      const down = await timed(`${app.base}/images/${hash}/480.webp`);
      expect(down.response.status).toBe(503);
      expect(down.response.headers.get("retry-after")).toBe("5");
      expect(down.response.headers.get("cache-control")).toBe("no-store");
      expect(down.ms).toBeLessThan(2000);
      // The rest of the page's pictures are not tried again meanwhile.
      const next = await timed(`${app.base}/images/${hash}/640.avif`);
      expect(next.response.status).toBe(503);
      expect(next.ms).toBeLessThan(1000);
      const page = await timed(`${app.base}/`);
      expect(page.response.status).toBe(200);

      await s3.start();
      // Asked again after Retry-After, as a browser or a CDN would.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      const back = await timed(`${app.base}/images/${hash}/480.webp`);
      expect(back.response.status).toBe(200);
      expect(back.response.headers.get("content-type")).toBe("image/webp");
    } finally {
      await s3.start();
      await app.close();
    }
  });

  it("answer 503 within the timeouts when it hangs, and pages do not wait for them", async () => {
    const silent = await startSilentServer();
    const app = await startTestApp(handle, {
      ...s3.env(),
      S3_ENDPOINT: silent.endpoint,
      S3_TIMEOUT_MS: "300",
    });
    try {
      // A page's worth of pictures at once, and the page itself while they wait.
      const pictures = ["160.webp", "320.webp", "480.webp", "640.webp", "wide-480.avif"].map(
        (file) => timed(`${app.base}/images/${hash}/${file}`),
      );
      const page = await timed(`${app.base}/`);
      expect(page.response.status).toBe(200);
      for (const { response, ms } of await Promise.all(pictures)) {
        expect(response.status).toBe(503);
        // Two tries of 300 ms and the SDK's pause between them, with room for a busy machine.
        expect(ms).toBeLessThan(3000);
      }
    } finally {
      await app.close();
      await silent.close();
    }
  });
});
