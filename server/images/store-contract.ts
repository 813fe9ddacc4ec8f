import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PictureStore } from "./store";

/**
 * What every picture store does, whatever keeps the bytes (server/images/store.ts): run by
 * store.test.ts on the folder and by s3-store.test.ts on a real S3-compatible server. `open`
 * answers a store over an empty place of the test's own, the same place each time it is called in
 * one test (as a second process or machine would see it); the bound is large enough never to bite.
 */
export function pictureStoreContract(name: string, open: () => PictureStore): void {
  const bytes = (fill: number, size = 1000) => new Uint8Array(size).fill(fill);
  const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
  const same = (found: Uint8Array | null, expected: Uint8Array) => {
    expect(found).not.toBeNull();
    expect(Buffer.from(found ?? [])).toEqual(Buffer.from(expected));
  };

  describe(`${name}, as every picture store`, () => {
    it("keeps an original once, by the sha256 of its bytes", async () => {
      const store = open();
      const hash = await store.putOriginal(bytes(1));
      expect(hash).toBe(sha256(bytes(1)));
      expect(await store.putOriginal(bytes(1))).toBe(hash);
      same(await store.getOriginal(hash), bytes(1));
      expect(await store.hasOriginal(hash)).toBe(true);
      expect(await store.totalBytes()).toBe(1000);
      expect(await store.getOriginal(sha256(bytes(2)))).toBeNull();
      expect(await store.hasOriginal(sha256(bytes(2)))).toBe(false);
    });

    it("keeps variants beside their original and removes them together", async () => {
      const store = open();
      const hash = await store.putOriginal(bytes(1));
      await store.putVariant(hash, "640.avif", bytes(2, 300));
      same(await store.getVariant(hash, "640.avif"), bytes(2, 300));
      expect(await store.getVariant(hash, "640.webp")).toBeNull();
      expect(await store.totalBytes()).toBe(1300);

      await store.remove(hash);
      expect(await store.getOriginal(hash)).toBeNull();
      expect(await store.getVariant(hash, "640.avif")).toBeNull();
      expect(await store.totalBytes()).toBe(0);
    });

    it("takes the names of focused copies and crops", async () => {
      const store = open();
      const hash = await store.putOriginal(bytes(1));
      for (const file of ["wide-f35x60-640.avif", "og-f0x100.jpg", "1x1-f50x50.jpg"]) {
        await store.putVariant(hash, file, bytes(2, 10));
        expect(await store.getVariant(hash, file)).not.toBeNull();
      }
    });

    it.each([
      ["../../etc", "640.avif"],
      [sha256(bytes(1)), "../original"],
      [sha256(bytes(1)), "640.svg"],
      [sha256(bytes(1)), "kept"],
      [sha256(bytes(1)), "f35x60-640.avif"],
      [sha256(bytes(1)), "og-f35x60-640.jpg"],
    ])("takes no other names (%s/%s)", async (hash, variant) => {
      const store = open();
      await expect(store.putVariant(hash, variant, bytes(1))).rejects.toThrow(
        /Not a picture variant/,
      );
      expect(await store.getVariant(hash, variant)).toBeNull();
    });

    it("answers nothing for a name that is no hash", async () => {
      const store = open();
      expect(await store.getOriginal("../../etc/passwd")).toBeNull();
      expect(await store.hasOriginal("original")).toBe(false);
      await store.remove("..");
      await store.release("..");
    });

    it("shows what another process put to the next one", async () => {
      const hash = await open().putOriginal(bytes(1));
      await open().putVariant(hash, "160.webp", bytes(2, 100));
      const later = open();
      expect(await later.totalBytes()).toBe(1100);
      same(await later.getVariant(hash, "160.webp"), bytes(2, 100));
    });

    describe("kept originals (newsroom uploads)", () => {
      it("does not count one against the bound", async () => {
        const store = open();
        const upload = await store.putOriginal(bytes(9), { keep: true });
        await store.putVariant(upload, "320.jpg", bytes(8, 100));
        same(await store.getOriginal(upload), bytes(9));
        // Its copies are counted: they can be made again.
        expect(await store.totalBytes()).toBe(100);
      });

      it("marks one stored already, and only one", async () => {
        const store = open();
        const upload = await store.putOriginal(bytes(9));
        expect(await store.keep(upload)).toBe(true);
        expect(await open().totalBytes()).toBe(0);
        expect(await store.keep(sha256(bytes(7)))).toBe(false);
        expect(await store.hasOriginal(sha256(bytes(7)))).toBe(false);
      });

      it("counts a released original as any other", async () => {
        const store = open();
        const upload = await store.putOriginal(bytes(9), { keep: true });
        await store.release(upload);
        expect(await store.totalBytes()).toBe(1000);
      });

      it("is removed when asked to", async () => {
        const store = open();
        const upload = await store.putOriginal(bytes(9), { keep: true });
        await store.remove(upload);
        expect(await store.hasOriginal(upload)).toBe(false);
        expect(await store.totalBytes()).toBe(0);
        // Put again later, it is an ordinary picture: the mark went with it.
        await store.putOriginal(bytes(9));
        expect(await store.totalBytes()).toBe(1000);
      });
    });
  });
}
