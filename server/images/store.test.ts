import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { folderPictureStore } from "./store";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pictures-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytes = (fill: number, size = 1000) => new Uint8Array(size).fill(fill);
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const pause = () => new Promise((resolve) => setTimeout(resolve, 15));

describe("folderPictureStore", () => {
  it("keeps an original once, by the sha256 of its bytes", async () => {
    const store = folderPictureStore({ dir, maxBytes: 1_000_000 });
    const hash = await store.putOriginal(bytes(1));
    expect(hash).toBe(sha256(bytes(1)));
    expect(await store.putOriginal(bytes(1))).toBe(hash);
    expect(await store.getOriginal(hash)).toEqual(Buffer.from(bytes(1)));
    expect(await store.totalBytes()).toBe(1000);
    expect(await store.getOriginal(sha256(bytes(2)))).toBeNull();
  });

  it("keeps variants beside their original and removes them together", async () => {
    const store = folderPictureStore({ dir, maxBytes: 1_000_000 });
    const hash = await store.putOriginal(bytes(1));
    await store.putVariant(hash, "640.avif", bytes(2, 300));
    expect(await store.getVariant(hash, "640.avif")).toEqual(Buffer.from(bytes(2, 300)));
    expect(await store.getVariant(hash, "640.webp")).toBeNull();
    expect(await store.totalBytes()).toBe(1300);

    await store.remove(hash);
    expect(await store.getOriginal(hash)).toBeNull();
    expect(await store.getVariant(hash, "640.avif")).toBeNull();
    expect(await store.totalBytes()).toBe(0);
  });

  it("leaves no partial files behind a write", async () => {
    const store = folderPictureStore({ dir, maxBytes: 1_000_000 });
    const hash = await store.putOriginal(bytes(1));
    await store.putVariant(hash, "320.jpg", bytes(3));
    expect(fs.readdirSync(path.join(dir, ".tmp"))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, hash)).sort()).toEqual(["320.jpg", "original"]);
  });

  it.each([
    ["../../etc", "640.avif"],
    [sha256(bytes(1)), "../original"],
    [sha256(bytes(1)), "640.svg"],
  ])("takes no other names (%s/%s)", async (hash, variant) => {
    const store = folderPictureStore({ dir, maxBytes: 1_000_000 });
    await expect(store.putVariant(hash, variant, bytes(1))).rejects.toThrow(
      /Not a picture variant/,
    );
    expect(await store.getVariant(hash, variant)).toBeNull();
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

  it("counts what an earlier process left in the folder", async () => {
    const first = folderPictureStore({ dir, maxBytes: 1_000_000 });
    const hash = await first.putOriginal(bytes(1));
    await first.putVariant(hash, "160.webp", bytes(2, 100));
    const second = folderPictureStore({ dir, maxBytes: 1_000_000 });
    expect(await second.totalBytes()).toBe(1100);
    expect(await second.getVariant(hash, "160.webp")).not.toBeNull();
  });

  it("creates nothing until something is written", async () => {
    const store = folderPictureStore({ dir: path.join(dir, "later"), maxBytes: 1_000_000 });
    expect(await store.getOriginal(sha256(bytes(1)))).toBeNull();
    expect(await store.totalBytes()).toBe(0);
    expect(fs.existsSync(path.join(dir, "later"))).toBe(false);
  });
});
