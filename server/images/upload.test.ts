import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startS3Server } from "../test-support/s3-server";
import { childPictureMaker } from "./picture-maker";
import { s3PictureStore } from "./s3-store";
import { folderPictureStore, type PictureStore } from "./store";
import { acceptUpload } from "./upload";

const MB = 1024 * 1024;
const OPTIONS = { maxBytes: 15 * MB };

let dir: string;
let store: PictureStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  store = folderPictureStore({ dir, maxBytes: 64 * MB });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const BLUE = { r: 40, g: 90, b: 160 };

function solid(width: number, height: number, background = BLUE) {
  return sharp({ create: { width, height, channels: 3, background } });
}

/** A JPEG segment (APPn, COM) with its length. */
function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** An IPTC caption as Photoshop writes it (APP13, resource 0x0404). */
function iptcSegment(caption: string): Buffer {
  const record = Buffer.concat([
    Buffer.from([0x1c, 0x02, 0x78, 0, caption.length]),
    Buffer.from(caption),
  ]);
  const resource = Buffer.alloc(12);
  resource.write("8BIM", 0);
  resource.writeUInt16BE(0x0404, 4);
  resource.writeUInt32BE(record.length, 8);
  return segment(0xed, Buffer.concat([Buffer.from("Photoshop 3.0\0"), resource, record]));
}

/** A phone's photo: EXIF with the camera and where it was taken, XMP, IPTC and a comment. */
async function phonePhoto(): Promise<Buffer> {
  const jpeg = await solid(640, 480)
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "Phone 12" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "32/1 42/1 57/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "117/1 9/1 40/1",
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="Secret Creator"/></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
  const extra = [iptcSegment("Secret caption"), segment(0xfe, Buffer.from("Secret comment"))];
  return Buffer.concat([jpeg.subarray(0, 2), ...extra, jpeg.subarray(2)]);
}

/** `png` with its header saying another size (the checksum mended), the pixels left as they are. */
function resizedHeader(png: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(png);
  // Signature (8), IHDR's length (4) and type (4), then width and height.
  copy.writeUInt32BE(width, 16);
  copy.writeUInt32BE(height, 20);
  copy.writeUInt32BE(zlib.crc32(copy.subarray(12, 29)), 29);
  return copy;
}

async function stored(hash: string): Promise<Buffer> {
  const bytes = await store.getOriginal(hash);
  if (!bytes) throw new Error(`not stored: ${hash}`);
  return Buffer.from(bytes);
}

describe("acceptUpload", () => {
  it("keeps a phone's photo without its location or any other metadata", async () => {
    const photo = await phonePhoto();
    const before = await sharp(photo).metadata();
    expect(before.exif).toBeDefined();
    // The EXIF's pointer to its GPS part (tag 0x8825, little-endian as libvips writes it).
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect(before.xmp).toBeDefined();
    expect(before.iptc).toBeDefined();

    const result = await acceptUpload(photo, store, OPTIONS);
    expect(result).toEqual({
      ok: true,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      width: 640,
      height: 480,
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      bytes: expect.any(Number),
    });
    if (!result.ok) return;
    const kept = await stored(result.hash);
    expect(result.bytes).toBe(kept.byteLength);
    const after = await sharp(kept).metadata();
    expect(after).toMatchObject({ format: "jpeg", width: 640, height: 480 });
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.comments).toBeUndefined();
    for (const trace of ["Exif", "PhoneMaker", "Secret", "Photoshop", "8BIM", "xmpmeta"]) {
      expect(kept.includes(trace), trace).toBe(false);
    }
    // The colour as the picture pass finds it: the photo's blue.
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.color.slice(i, i + 2), 16));
    expect(b).toBeGreaterThan(r ?? 255);
    expect(b).toBeGreaterThan(g ?? 255);
  });

  it("turns a picture upright before keeping it", async () => {
    // Stored 200 × 100 with a red block at its top left, to be shown turned a quarter clockwise:
    // 100 × 200, the block at the top right.
    const red = await solid(40, 40, { r: 220, g: 10, b: 10 }).png().toBuffer();
    const sideways = await solid(200, 100)
      .composite([{ input: red, top: 0, left: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const result = await acceptUpload(sideways, store, OPTIONS);
    expect(result).toMatchObject({ ok: true, width: 100, height: 200 });
    if (!result.ok) return;
    const kept = await stored(result.hash);
    const metadata = await sharp(kept).metadata();
    expect(metadata).toMatchObject({ width: 100, height: 200 });
    expect(metadata.orientation).toBeUndefined();
    const { data, info } = await sharp(kept).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels] ?? 0;
    expect(at(90, 10)).toBeGreaterThan(180);
    expect(at(10, 10)).toBeLessThan(80);
  });

  it("keeps a polyglot's picture alone: what rode along in its comment and after it is gone", async () => {
    const jpeg = await solid(120, 90).jpeg().toBuffer();
    const polyglot = Buffer.concat([
      jpeg.subarray(0, 2),
      segment(0xfe, Buffer.from("<script>alert(1)</script>")),
      jpeg.subarray(2),
      Buffer.from("<html><body><script>alert(2)</script></body></html>"),
    ]);
    const result = await acceptUpload(polyglot, store, OPTIONS);
    expect(result).toMatchObject({ ok: true, width: 120, height: 90 });
    if (!result.ok) return;
    const kept = await stored(result.hash);
    expect(kept.includes("<script")).toBe(false);
    expect(kept.includes("<html")).toBe(false);
  });

  it.each([
    ["PNG", "png", () => solid(64, 48).png().withXmp("<x:xmpmeta>Secret</x:xmpmeta>").toBuffer()],
    [
      "WebP",
      "webp",
      () =>
        solid(64, 48)
          .webp()
          .withExif({ IFD0: { Make: "Secret" } })
          .toBuffer(),
    ],
    ["AVIF", "heif", () => solid(64, 48).avif({ effort: 0 }).toBuffer()],
  ])("keeps a %s as itself, without metadata", async (_name, format, make) => {
    const result = await acceptUpload(await make(), store, OPTIONS);
    expect(result).toMatchObject({ ok: true, width: 64, height: 48 });
    if (!result.ok) return;
    const kept = await stored(result.hash);
    const metadata = await sharp(kept).metadata();
    expect(metadata.format).toBe(format);
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(kept.includes("Secret")).toBe(false);
  });

  it("keeps a GIF's first frame, as a PNG", async () => {
    const frames = await Promise.all([
      solid(40, 30, { r: 220, g: 10, b: 10 }).png().toBuffer(),
      solid(40, 30).png().toBuffer(),
    ]);
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const result = await acceptUpload(animated, store, OPTIONS);
    expect(result).toMatchObject({ ok: true, width: 40, height: 30 });
    if (!result.ok) return;
    const metadata = await sharp(await stored(result.hash)).metadata();
    expect(metadata).toMatchObject({ format: "png", width: 40, height: 30 });
    expect(metadata.pages ?? 1).toBe(1);
    const { dominant } = await sharp(await stored(result.hash)).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
  });

  it("keeps the same picture once, under the same hash", async () => {
    const photo = await phonePhoto();
    const first = await acceptUpload(photo, store, OPTIONS);
    const second = await acceptUpload(Buffer.from(photo), store, OPTIONS);
    expect(first.ok && second.ok).toBe(true);
    expect(second).toEqual(first);
    expect(fs.readdirSync(dir).filter((name) => /^[0-9a-f]{64}$/.test(name))).toHaveLength(1);
  });

  const NOT_A_PICTURE = "This file is not a picture we can use (JPEG, PNG, WebP, AVIF or GIF).";

  it.each([
    [
      "an SVG",
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      NOT_A_PICTURE,
    ],
    ["an SVG without a size", () => Buffer.from("<svg/>"), NOT_A_PICTURE],
    ["an HTML page", () => Buffer.from("<!doctype html><title>Hi</title><p>Hello"), NOT_A_PICTURE],
    ["a PDF", () => Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\n"), NOT_A_PICTURE],
    [
      "a script dressed as a GIF",
      () => Buffer.from("GIF89a/*<script>alert(1)</script>*/=1;alert(document.cookie);"),
      "This picture could not be read: the file may be damaged or incomplete.",
    ],
    ["a TIFF", () => solid(20, 20).tiff().toBuffer(), NOT_A_PICTURE],
    ["an empty file", () => Buffer.alloc(0), "This file is empty."],
    [
      "a JPEG cut short",
      async () => {
        const whole = await sharp({
          create: {
            width: 400,
            height: 300,
            channels: 3,
            background: "#808080",
            noise: { type: "gaussian", mean: 128, sigma: 30 },
          },
        })
          .jpeg()
          .toBuffer();
        return whole.subarray(0, Math.floor(whole.byteLength / 2));
      },
      "This picture could not be read: the file may be damaged or incomplete.",
    ],
    [
      "a small PNG that says it is 10,000 × 10,000 pixels",
      async () => resizedHeader(await solid(16, 16).png().toBuffer(), 10_000, 10_000),
      "This picture has more than 40 million pixels.",
    ],
    [
      "a PNG of 20 million pixels",
      async () => resizedHeader(await solid(16, 16).png().toBuffer(), 5000, 4000),
      "This PNG or GIF has more than 16 million pixels: save it as a JPEG, or smaller.",
    ],
  ])("refuses %s, saying why", async (_name, make, error) => {
    const started = Date.now();
    expect(await acceptUpload(await make(), store, OPTIONS)).toEqual({ ok: false, error });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n !== ".tmp") : []).toEqual([]);
  });

  it("refuses a file larger than the limit before reading it", async () => {
    const photo = await phonePhoto();
    expect(await acceptUpload(photo, store, { maxBytes: photo.byteLength - 1 })).toEqual({
      ok: false,
      error: `This picture is larger than ${Number(((photo.byteLength - 1) / MB).toFixed(1))} MB.`,
    });
    const big = Buffer.concat([photo, Buffer.alloc(16 * MB - photo.byteLength)]);
    expect(await acceptUpload(big, store, OPTIONS)).toEqual({
      ok: false,
      error: "This picture is larger than 15 MB.",
    });
  });

  it("keeps its original when the store passes its bound", async () => {
    const small = folderPictureStore({ dir, maxBytes: 200_000 });
    const upload = await acceptUpload(await phonePhoto(), small, OPTIONS);
    if (!upload.ok) throw new Error(upload.error);
    for (let i = 0; i < 20; i++) await small.putOriginal(new Uint8Array(20_000).fill(i));
    expect(await small.hasOriginal(upload.hash)).toBe(true);
  });

  it("works through the web process's child process", async () => {
    const maker = childPictureMaker();
    try {
      const viaChild = await acceptUpload(await phonePhoto(), store, { ...OPTIONS, maker });
      const inline = await acceptUpload(await phonePhoto(), store, OPTIONS);
      expect(viaChild).toEqual(inline);
      expect(await acceptUpload(Buffer.from("<svg/>"), store, { ...OPTIONS, maker })).toEqual({
        ok: false,
        error: NOT_A_PICTURE,
      });
    } finally {
      await maker.close();
    }
  });

  it("tells the editor when the bucket does not answer, and keeps nothing half-way", async () => {
    const s3 = await startS3Server();
    try {
      const bucket = s3PictureStore(s3.storeConfig(), { pauseAfterFailureMs: 100 });
      await s3.stop();
      const refused = await acceptUpload(await phonePhoto(), bucket, OPTIONS);
      expect(refused).toEqual({ ok: false, error: expect.stringMatching(/could not be stored/) });
      await s3.start();
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Back again, the same upload is taken, and kept as an upload (not counted).
      const taken = await acceptUpload(await phonePhoto(), bucket, OPTIONS);
      if (!taken.ok) throw new Error(taken.error);
      expect(await bucket.hasOriginal(taken.hash)).toBe(true);
      expect(await bucket.totalBytes()).toBe(0);
    } finally {
      await s3.close();
    }
  });
});
