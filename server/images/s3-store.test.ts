import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startS3Server, startSilentServer, type TestS3Server } from "../test-support/s3-server";
import { s3ClientFor, s3PictureStore } from "./s3-store";
import { PictureStoreUnavailableError } from "./store";
import { pictureStoreContract } from "./store-contract";

let s3: TestS3Server;
let prefix: string;
let tests = 0;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.close());
// Each test in a place of its own in the one bucket.
beforeEach(() => {
  tests += 1;
  prefix = `test-${tests}/`;
});

pictureStoreContract("s3PictureStore", () => s3PictureStore(s3.storeConfig({ prefix })));

const bytes = (fill: number, size = 1000) => new Uint8Array(size).fill(fill);

/** The keys in the bucket under the test's prefix, without it. */
async function keys(): Promise<string[]> {
  const answer = await s3ClientFor(s3.storeConfig()).send(
    new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }),
  );
  return (answer.Contents ?? []).map((object) => (object.Key ?? "").slice(prefix.length)).sort();
}

describe("s3PictureStore", () => {
  it("lays pictures out as decision 022 says, the same from every machine", async () => {
    const first = s3PictureStore(s3.storeConfig({ prefix }));
    const second = s3PictureStore(s3.storeConfig({ prefix }));
    const hash = await first.putOriginal(bytes(1));
    expect(await second.putOriginal(bytes(1))).toBe(hash);
    await second.putVariant(hash, "wide-640.avif", bytes(2, 10));
    const upload = await first.putOriginal(bytes(9), { keep: true });
    expect(await keys()).toEqual(
      [
        `originals/${hash}`,
        `variants/${hash}/wide-640.avif`,
        `originals/${upload}`,
        `kept/${upload}`,
      ].sort(),
    );
  });

  it("lists and removes past a page", async () => {
    // Pages of 2 keys: the paging of ListObjectsV2 and DeleteObjects, not 1,000 objects' worth.
    const store = s3PictureStore(s3.storeConfig({ prefix }), { pageSize: 2 });
    const hash = await store.putOriginal(bytes(1));
    for (const width of [160, 320, 480, 640, 960]) {
      await store.putVariant(hash, `${width}.webp`, bytes(2, 100));
    }
    expect(await store.totalBytes()).toBe(1500);
    await store.remove(hash);
    expect(await keys()).toEqual([]);
  });

  describe("when the store does not answer", () => {
    it("fails at once while it is down, loses nothing, and works again when it is back", async () => {
      const store = s3PictureStore(s3.storeConfig({ prefix }), { pauseAfterFailureMs: 300 });
      const hash = await store.putOriginal(bytes(1));
      await s3.stop();
      try {
        let started = performance.now();
        await expect(store.getOriginal(hash)).rejects.toBeInstanceOf(PictureStoreUnavailableError);
        expect(performance.now() - started).toBeLessThan(1500);
        // A put fails too, visibly: the caller does not go on as if the picture were kept.
        started = performance.now();
        await expect(store.putOriginal(bytes(2))).rejects.toBeInstanceOf(
          PictureStoreUnavailableError,
        );
        expect(performance.now() - started).toBeLessThan(200);
      } finally {
        await s3.start();
      }
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(Buffer.from((await store.getOriginal(hash)) ?? [])).toEqual(Buffer.from(bytes(1)));
      expect(await store.hasOriginal(await store.putOriginal(bytes(2)))).toBe(true);
    });

    it("gives up on one that hangs within its timeouts, then fails at once", async () => {
      const silent = await startSilentServer();
      try {
        const store = s3PictureStore(
          s3.storeConfig({ prefix, endpoint: silent.endpoint, timeoutMs: 300 }),
        );
        let started = performance.now();
        const error: unknown = await store.getVariant("a".repeat(64), "320.webp").catch((e) => e);
        expect(error).toBeInstanceOf(PictureStoreUnavailableError);
        expect((error as PictureStoreUnavailableError).retryAfterSeconds).toBe(5);
        // Two tries of 300 ms and the SDK's pause between them.
        expect(performance.now() - started).toBeLessThan(2500);
        started = performance.now();
        await expect(store.getOriginal("a".repeat(64))).rejects.toThrow(/not tried/);
        expect(performance.now() - started).toBeLessThan(200);
      } finally {
        await silent.close();
      }
    });
  });
});
