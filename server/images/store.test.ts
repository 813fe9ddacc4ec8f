import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { folderPictureStore, keepStored } from "./store";
import { pictureStoreContract } from "./store-contract";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pictures-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytes = (fill: number, size = 1000) => new Uint8Array(size).fill(fill);
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

pictureStoreContract("folderPictureStore", () => folderPictureStore({ dir, maxBytes: 1_000_000 }));

describe("folderPictureStore", () => {
  it("leaves no partial files behind a write", async () => {
    const store = folderPictureStore({ dir, maxBytes: 1_000_000 });
    const hash = await store.putOriginal(bytes(1));
    await store.putVariant(hash, "320.jpg", bytes(3));
    expect(fs.readdirSync(path.join(dir, ".tmp"))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, hash)).sort()).toEqual(["320.jpg", "original"]);
  });

  it("removes the pictures used least recently when it passes its bound", async () => {
    const store = folderPictureStore({ dir, maxBytes: 3500 });
    const a = await store.putOriginal(bytes(1));
    await pause();
    const b = await store.putOriginal(bytes(2));
    await pause();
    const c = await store.putOriginal(bytes(3));
    await pause();
    await store.getOriginal(a);
    await pause();
    const d = await store.putOriginal(bytes(4));

    expect(await store.getOriginal(b)).toBeNull();
    for (const kept of [a, c, d]) expect(await store.getOriginal(kept)).not.toBeNull();
    expect(await store.totalBytes()).toBe(3000);
  });

  it("creates nothing until something is written", async () => {
    const store = folderPictureStore({ dir: path.join(dir, "later"), maxBytes: 1_000_000 });
    expect(await store.getOriginal(sha256(bytes(1)))).toBeNull();
    expect(await store.totalBytes()).toBe(0);
    expect(fs.existsSync(path.join(dir, "later"))).toBe(false);
  });

  describe("kept originals (newsroom uploads)", () => {
    it("never removes one to stay within its bound, nor counts it", async () => {
      const store = folderPictureStore({ dir, maxBytes: 3500 });
      const upload = await store.putOriginal(bytes(9), { keep: true });
      expect(await store.totalBytes()).toBe(0);
      await pause();
      // Older than every feed picture, and never read: the first to go, were it not kept.
      const feed = [];
      for (const fill of [1, 2, 3, 4, 5, 6]) {
        feed.push(await store.putOriginal(bytes(fill)));
        await pause();
      }
      expect(await store.getOriginal(upload)).toEqual(Buffer.from(bytes(9)));
      // The bound still holds three feed pictures (3000 of 3500).
      expect(await store.totalBytes()).toBe(3000);
      expect(await store.getOriginal(feed[5] ?? "")).not.toBeNull();
      expect(await store.getOriginal(feed[0] ?? "")).toBeNull();
    });

    it("removes a kept picture's copies when they are the least used, not its original", async () => {
      const store = folderPictureStore({ dir, maxBytes: 2500 });
      const upload = await store.putOriginal(bytes(9), { keep: true });
      await store.putVariant(upload, "wide-f35x60-640.avif", bytes(8, 1000));
      await pause();
      await store.putOriginal(bytes(1));
      await pause();
      await store.putOriginal(bytes(2));
      expect(await store.getVariant(upload, "wide-f35x60-640.avif")).toBeNull();
      expect(await store.getOriginal(upload)).not.toBeNull();
      expect(fs.readdirSync(path.join(dir, upload)).sort()).toEqual(["kept", "original"]);
    });

    it("keeps one another process marked (the mark is a file)", async () => {
      const first = folderPictureStore({ dir, maxBytes: 2500 });
      const upload = await first.putOriginal(bytes(9));
      expect(await first.keep(upload)).toBe(true);
      expect(await first.keep(sha256(bytes(7)))).toBe(false);
      await pause();
      const second = folderPictureStore({ dir, maxBytes: 2500 });
      for (const fill of [1, 2, 3, 4]) await second.putOriginal(bytes(fill));
      expect(await second.getOriginal(upload)).not.toBeNull();
    });

    it("lets a released original go like any other", async () => {
      const store = folderPictureStore({ dir, maxBytes: 2500 });
      const upload = await store.putOriginal(bytes(9), { keep: true });
      await store.release(upload);
      expect(await store.totalBytes()).toBe(1000);
      await pause();
      for (const fill of [1, 2]) {
        await store.putOriginal(bytes(fill));
        await pause();
      }
      expect(await store.getOriginal(upload)).toBeNull();
    });
  });
});

describe("keepStored", () => {
  /** One store's originals and marks, as a second process or machine sees them too. */
  function place(originals: string[]) {
    const stored = new Set(originals);
    const kept = new Set<string>();
    return {
      stored,
      kept,
      hasOriginal: async (hash: string) => stored.has(hash),
      mark: async (hash: string) => void kept.add(hash),
      release: async (hash: string) => void kept.delete(hash),
    };
  }

  it("marks a stored original, and not one that is missing", async () => {
    const store = place(["a"]);
    expect(await keepStored("a", store)).toBe(true);
    expect(await keepStored("b", store)).toBe(false);
    expect([...store.kept]).toEqual(["a"]);
  });

  it("takes its mark back when the original was removed while it was being marked", async () => {
    const store = place(["a"]);
    // Another machine removes the original (the store over its bound) right after the mark.
    const kept = await keepStored("a", {
      ...store,
      mark: async (hash) => {
        await store.mark(hash);
        store.stored.delete(hash);
      },
    });
    expect(kept).toBe(false);
    expect(store.kept.size).toBe(0);
  });
});
