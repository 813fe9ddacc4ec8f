import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { renderCrop, renderVariant } from "../images/picture";
import { CROPS } from "../images/variants";
import { ensurePhotos, PHOTO_SPECS, renderPhoto, type Photo } from "./photos";

/** The tag numbers of an EXIF block's IFD0 and of its GPS IFD (TIFF layout, either byte order). */
function exifTags(exif: Buffer): { ifd0: number[]; gps: number[] } {
  const tiff = exif.subarray(exif.indexOf("Exif\0\0") + 6);
  const little = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (offset: number) =>
    Array.from({ length: u16(offset) }, (_, i) => ({
      tag: u16(offset + 2 + i * 12),
      value: u32(offset + 2 + i * 12 + 8),
    }));
  const ifd0 = entries(u32(4));
  const gpsPointer = ifd0.find((entry) => entry.tag === 0x8825);
  return {
    ifd0: ifd0.map((e) => e.tag),
    gps: gpsPointer ? entries(gpsPointer.value).map((e) => e.tag) : [],
  };
}

describe("the real-photos generator", () => {
  let photos: Photo[];
  beforeAll(async () => {
    // Drawn once per machine into the cache folder; later runs read them back.
    photos = await ensurePhotos();
  }, 60_000);

  it("makes several photos of a news photo's size and weight", async () => {
    expect(photos.length).toBeGreaterThanOrEqual(6);
    expect(new Set(photos.map((p) => p.sha256)).size).toBe(photos.length);
    for (const photo of photos) {
      const bytes = await fs.readFile(photo.file);
      expect(bytes.byteLength).toBe(photo.bytes);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(photo.sha256);
      expect(photo.bytes, photo.name).toBeGreaterThanOrEqual(200 * 1024);
      expect(photo.bytes, photo.name).toBeLessThanOrEqual(1024 * 1024);
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe("jpeg");
      expect(metadata.autoOrient).toEqual({ width: photo.width, height: photo.height });
      expect(Math.max(photo.width, photo.height), photo.name).toBeGreaterThanOrEqual(1200);
      expect(Math.max(photo.width, photo.height), photo.name).toBeLessThanOrEqual(2000);
    }
    const landscape = photos.filter((p) => p.width > p.height);
    const portrait = photos.filter((p) => p.height > p.width);
    expect(landscape.length).toBeGreaterThanOrEqual(4);
    expect(portrait.length).toBeGreaterThanOrEqual(1);
    // Landscape photos are 1200-2000 wide, as the photos are.
    for (const photo of landscape) expect(photo.width).toBeGreaterThanOrEqual(1200);
  });

  it("stores the phone photo on its side with orientation, camera and GPS EXIF; the others bare", async () => {
    const withExif = [];
    for (const photo of photos) {
      const metadata = await sharp(photo.file).metadata();
      if (!metadata.exif) continue;
      withExif.push(photo.name);
      expect(metadata.orientation).toBe(6);
      // Stored as the sensor saw it: the other way round from how it is shown.
      expect({ width: metadata.width, height: metadata.height }).toEqual({
        width: photo.height,
        height: photo.width,
      });
      const tags = exifTags(metadata.exif);
      expect(tags.ifd0).toEqual(expect.arrayContaining([0x010f, 0x0110, 0x0112, 0x8825]));
      // GPSLatitudeRef, GPSLatitude, GPSLongitudeRef, GPSLongitude.
      expect(tags.gps).toEqual(expect.arrayContaining([1, 2, 3, 4]));
      expect(metadata.exif.toString("latin1")).toContain("Sample Phone 12");
    }
    expect(withExif).toEqual(["phone-street"]);
  });

  it("comes out of the picture pipeline upright, with no EXIF, GPS or orientation left", async () => {
    const phone = photos.find((p) => p.name === "phone-street");
    if (!phone) throw new Error("phone-street missing");
    const original = await fs.readFile(phone.file);
    for (const copy of [
      await renderVariant(original, { width: 320, format: "jpeg" }),
      await renderVariant(original, { width: 320, format: "webp" }),
      await renderCrop(original, CROPS.og),
    ]) {
      const metadata = await sharp(copy).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.orientation).toBeUndefined();
      expect(copy.includes("Sample Phone")).toBe(false);
    }
    // Portrait as displayed: 320 wide, 320 × 1600 / 1200 high.
    const small = await sharp(
      await renderVariant(original, { width: 320, format: "jpeg" }),
    ).metadata();
    expect({ width: small.width, height: small.height }).toEqual({ width: 320, height: 427 });
  });

  it("draws the same bytes from the same spec, and different ones from another seed", async () => {
    const spec = { name: "small", width: 480, height: 320, seed: 5, grain: 6, quality: 85 };
    const [a, b, c] = await Promise.all([
      renderPhoto(spec),
      renderPhoto(spec),
      renderPhoto({ ...spec, seed: 6 }),
    ]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    // The cached set is what the specs draw now (a stale cache would not be).
    const trolley = PHOTO_SPECS.find((s) => s.name === "trolley-stop");
    if (!trolley) throw new Error("trolley-stop spec missing");
    const fresh = await renderPhoto(trolley);
    expect(createHash("sha256").update(fresh).digest("hex")).toBe(
      photos.find((p) => p.name === "trolley-stop")?.sha256,
    );
  });

  it("draws a missing photo again and keeps the ones present", async () => {
    const dir = await fs.mkdtemp("/tmp/photos-test-");
    try {
      const specs = [{ name: "tiny", width: 320, height: 200, seed: 9, grain: 6, quality: 85 }];
      const [first] = await ensurePhotos(specs, dir);
      const stat = await fs.stat(first?.file ?? "");
      const [again] = await ensurePhotos(specs, dir);
      expect(again).toEqual(first);
      expect((await fs.stat(again?.file ?? "")).mtimeMs).toBe(stat.mtimeMs);
      await fs.writeFile(first?.file ?? "", "");
      const [redrawn] = await ensurePhotos(specs, dir);
      expect(redrawn?.sha256).toBe(first?.sha256);
      expect((await fs.readdir(dir)).sort()).toEqual(["tiny.jpg"]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
