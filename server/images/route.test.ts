import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { socialImage, structuredDataImages, variantSrcset } from "../../shared/picture";
import { parseConfig } from "../config";
import { securityHeaders } from "../http/security";
import { childPictureMaker, inlinePictureMaker, type PictureMaker } from "./picture-maker";
import { pictureRoutes } from "./route";
import { folderPictureStore, type PictureStore } from "./store";

let dir: string;
let server: http.Server;
let base: string;
let hash: string;
/** A portrait picture, 900 × 1600: grey, a red block at its top left, a blue one at its bottom right. */
let cornersHash: string;
const written: string[] = [];
let maker: PictureMaker;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "picture-route-"));
  const folder = folderPictureStore({ dir, maxBytes: 100 * 1024 * 1024 });
  // The folder store, noting what is written to it.
  const store: PictureStore = {
    ...folder,
    putVariant: (hash, variant, bytes) => {
      written.push(variant);
      return folder.putVariant(hash, variant, bytes);
    },
  };
  const photo = sharp({
    create: { width: 800, height: 533, channels: 3, background: { r: 30, g: 90, b: 160 } },
  });
  hash = await store.putOriginal(await photo.jpeg().toBuffer());
  const block = (background: { r: number; g: number; b: number }) =>
    sharp({ create: { width: 300, height: 300, channels: 3, background } })
      .png()
      .toBuffer();
  const corners = sharp({
    create: { width: 900, height: 1600, channels: 3, background: { r: 128, g: 128, b: 128 } },
  }).composite([
    { input: await block({ r: 220, g: 10, b: 10 }), top: 0, left: 0 },
    { input: await block({ r: 10, g: 10, b: 220 }), top: 1300, left: 600 },
  ]);
  cornersHash = await store.putOriginal(await corners.png().toBuffer());

  const app = express();
  app.use(securityHeaders(parseConfig({})));
  // As the web process makes them: in a child process.
  maker = childPictureMaker();
  app.use(pictureRoutes(store, maker));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await maker.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("GET /images/<sha256>/<width>.<format>", () => {
  it.each([
    ["320.webp", "image/webp", "webp"],
    ["480.avif", "image/avif", "heif"],
    ["160.jpg", "image/jpeg", "jpeg"],
  ])("serves %s of a stored picture, made once and kept", async (file, type, format) => {
    const response = await fetch(`${base}/images/${hash}/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("etag")).toBeTruthy();
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata).toMatchObject({ format, width: Number.parseInt(file, 10) });

    const again = await fetch(`${base}/images/${hash}/${file}`);
    expect(again.headers.get("etag")).toBe(response.headers.get("etag"));
    expect(written.filter((name) => name === file)).toEqual([file]);
  });

  it("serves a wide copy: the picture's middle 16:9, kept apart from the whole one", async () => {
    const response = await fetch(`${base}/images/${hash}/wide-480.avif`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/avif");
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata).toMatchObject({ width: 480, height: 270 });
    // The 800 × 533 original's widest 16:9 part is 800 × 450: the next width up is made at that.
    const widest = await fetch(`${base}/images/${hash}/wide-960.jpg`);
    expect(await sharp(Buffer.from(await widest.arrayBuffer())).metadata()).toMatchObject({
      width: 800,
      height: 450,
    });
    expect(written).toContain("wide-480.avif");
  });

  it("makes a copy asked for by several readers at once only once", async () => {
    const answers = await Promise.all([1, 2, 3].map(() => fetch(`${base}/images/${hash}/640.jpg`)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(written.filter((name) => name === "640.jpg")).toEqual(["640.jpg"]);
  });

  it("answers HEAD without a body, and a matching If-None-Match with 304", async () => {
    const url = `${base}/images/${hash}/960.webp`;
    const full = await fetch(url);
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(full.headers.get("content-length"));
    expect(await head.text()).toBe("");
    const etag = full.headers.get("etag") ?? "";
    // As a browser revalidates (fetch() alone would add `Cache-Control: no-cache`).
    const cached = await fetch(url, {
      headers: { "if-none-match": etag, "cache-control": "max-age=0" },
    });
    expect(cached.status).toBe(304);
  });

  it.each([
    ["an unknown picture", `${"a".repeat(64)}/320.webp`],
    ["a width not in the list", "HASH/500.webp"],
    ["a wide width not in the list", "HASH/wide-500.webp"],
    ["another shape", "HASH/tall-320.webp"],
    ["a wide crop", "HASH/wide-og.jpg"],
    ["a width beyond the list", "HASH/3200.jpg"],
    ["another format", "HASH/320.png"],
    ["SVG", "HASH/320.svg"],
    ["a hash in capitals", "HASH_UPPER/320.webp"],
    ["a short hash", "abc123/320.webp"],
    ["the original", "HASH/original"],
    ["a crop in another format", "HASH/og.webp"],
    ["a crop not in the list", "HASH/2x1.jpg"],
    ["a path outside", "..%2F..%2Fetc/320.jpg"],
    // Each copy has one name: another spelling of a width would make and keep a second copy.
    ["a width with a leading zero", "HASH/0640.jpg"],
    ["a wide width with leading zeros", "HASH/wide-0480.avif"],
    // A focus in FOCUS_STEP's steps only, spelt one way, and only where a copy is cut.
    ["a focus between steps", "HASH/wide-f33x60-480.avif"],
    ["a focus beyond the picture", "HASH/og-f105x50.jpg"],
    ["a focus with a leading zero", "HASH/og-f05x50.jpg"],
    ["a focus on a whole copy", "HASH/f50x50-480.avif"],
    ["a focus after the width", "HASH/wide-480-f50x50.avif"],
    ["a focus without a width", "HASH/wide-f50x50.avif"],
    ["half a focus", "HASH/og-f50.jpg"],
  ])("is 404 for %s", async (_name, address) => {
    const file = address.replace("HASH_UPPER", hash.toUpperCase()).replace("HASH", hash);
    const response = await fetch(`${base}/images/${file}`);
    expect(response.status).toBe(404);
  });

  it("keeps no copy under a name with a leading zero", () => {
    expect(written.filter((name) => /^(wide-)?0/.test(name))).toEqual([]);
  });
});

describe("copies and crops around a focus", () => {
  /** The colour at a point of a copy, as red, blue or grey. */
  async function colourAt(address: string, x: number, y: number) {
    const response = await fetch(`${base}${address}`);
    expect(response.status, address).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const at = (y * info.width + x) * info.channels;
    const [r = 0, g = 0, b = 0] = [data[at], data[at + 1], data[at + 2]];
    if (r > 150 && b < 80) return "red";
    if (b > 150 && r < 80) return "blue";
    if (Math.abs(r - 128) < 30 && Math.abs(g - 128) < 30 && Math.abs(b - 128) < 30) return "grey";
    return `rgb(${r}, ${g}, ${b})`;
  }

  const picture = (focus?: { x: number; y: number }) => ({
    kind: "stored" as const,
    hash: cornersHash,
    width: 900,
    height: 1600,
    color: "#808080",
    ...(focus ? { focus } : {}),
  });
  /** The first address of a srcset. */
  const first = (srcset: string) => srcset.split(" ")[0] ?? "";

  it("cuts wide copies around the focus the address names, and centred without one", async () => {
    const top = first(variantSrcset(picture({ x: 0, y: 0 }), "jpeg", { shape: "wide" }));
    expect(top).toBe(`/images/${cornersHash}/wide-f0x0-160.jpg`);
    expect(await colourAt(top, 5, 5)).toBe("red");
    const bottom = `/images/${cornersHash}/wide-f100x100-480.jpg`;
    expect(await colourAt(bottom, 470, 260)).toBe("blue");
    expect(await colourAt(bottom, 5, 5)).toBe("grey");
    // No focus: the middle, neither block.
    const middle = first(variantSrcset(picture(), "jpeg", { shape: "wide", maxWidth: 480 }));
    expect(middle).toBe(`/images/${cornersHash}/wide-160.jpg`);
    expect(await colourAt(middle, 5, 5)).toBe("grey");
    expect(await colourAt(middle, 155, 85)).toBe("grey");
  });

  it("cuts the preview and structured data crops around the focus", async () => {
    const og = socialImage(picture({ x: 0, y: 0 }), "Alt")?.url ?? "";
    expect(og).toBe(`/images/${cornersHash}/og-f0x0.jpg`);
    expect(await colourAt(og, 10, 10)).toBe("red");
    const crops = structuredDataImages(picture({ x: 100, y: 100 })) ?? [];
    expect(crops).toEqual(
      ["16x9", "4x3", "1x1"].map((crop) => `/images/${cornersHash}/${crop}-f100x100.jpg`),
    );
    const square = crops[2] ?? "";
    expect(await colourAt(square, 1190, 1190)).toBe("blue");
    expect(await colourAt(square, 10, 10)).toBe("grey");
    expect(written).toContain("1x1-f100x100.jpg");
  });
});

describe("GET /images/<sha256>/<crop>.jpg", () => {
  it.each([
    ["og", 1200, 630],
    ["16x9", 1200, 675],
    ["4x3", 1200, 900],
    ["1x1", 1200, 1200],
  ])("serves the %s crop at exactly %i × %i, JPEG, kept", async (crop, width, height) => {
    const response = await fetch(`${base}/images/${hash}/${crop}.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata).toMatchObject({ format: "jpeg", width, height });
    expect(metadata.exif).toBeUndefined();
    expect(written.filter((name) => name === `${crop}.jpg`)).toEqual([`${crop}.jpg`]);
  });
});

describe("a copy that cannot be made", () => {
  it("answers 503, not cached, keeps nothing, and is made on a later request", async () => {
    const store = folderPictureStore({
      dir: fs.mkdtempSync(path.join(dir, "stuck-")),
      maxBytes: 1e8,
    });
    const original = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: { r: 9, g: 9, b: 9 } },
    })
      .jpeg()
      .toBuffer();
    const stored = await store.putOriginal(original);
    // A maker whose child is stopped before any photo can be made, as a picture that hangs libvips.
    const stuck = childPictureMaker({ jobTimeoutMs: 1 });
    const patient = childPictureMaker();
    const app = express();
    let makerInUse = stuck;
    app.use(
      pictureRoutes(store, {
        inspect: (bytes) => makerInUse.inspect(bytes),
        variant: (bytes, variant) => makerInUse.variant(bytes, variant),
        crop: (bytes, crop) => makerInUse.crop(bytes, crop),
        clean: (bytes) => makerInUse.clean(bytes),
        close: async () => undefined,
      }),
    );
    const other = http.createServer(app);
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(other.address() as AddressInfo).port}/images/${stored}/800.avif`;
    try {
      const refused = await fetch(at);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(await refused.text()).toBe("The picture could not be made just now.");
      expect(await store.getVariant(stored, "800.avif")).toBeNull();

      makerInUse = patient;
      const made = await fetch(at);
      expect(made.status).toBe(200);
      expect(made.headers.get("content-type")).toBe("image/avif");
    } finally {
      await new Promise((resolve) => other.close(resolve));
      await Promise.all([stuck.close(), patient.close()]);
    }
  });

  it("refuses a copy past the most that may wait, 503 and Retry-After, and makes the rest", async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "picture-queue-"));
    const folder = folderPictureStore({ dir: own, maxBytes: 100 * 1024 * 1024 });
    // Counts the copies found missing: each is then waiting to be made.
    let missing = 0;
    const store: PictureStore = {
      ...folder,
      getVariant: async (hash, variant) => {
        const found = await folder.getVariant(hash, variant);
        if (!found) missing += 1;
        return found;
      },
    };
    const stored = await store.putOriginal(
      await sharp({ create: { width: 800, height: 533, channels: 3, background: "#336699" } })
        .jpeg()
        .toBuffer(),
    );
    // Copies wait until the test lets them be made, as behind a long queue.
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inline = inlinePictureMaker();
    const waiting: PictureMaker = {
      ...inline,
      variant: async (original, variant) => {
        await gate;
        return inline.variant(original, variant);
      },
    };
    const app = express();
    app.use(pictureRoutes(store, waiting, 3));
    const other = http.createServer(app);
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const at = (file: string) =>
      `http://127.0.0.1:${(other.address() as AddressInfo).port}/images/${stored}/${file}`;
    try {
      const first = ["320.webp", "480.webp", "640.webp"].map((file) => fetch(at(file)));
      await expect.poll(() => missing).toBe(3);
      // Three wait; a fourth different copy is refused at once, one of the three again waits too.
      const refused = await fetch(at("800.webp"));
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("10");
      expect(refused.headers.get("cache-control")).toBe("no-store");
      const again = fetch(at("320.webp"));
      open();
      for (const answer of await Promise.all([...first, again])) expect(answer.status).toBe(200);
      // The queue empty, the refused copy is made.
      expect((await fetch(at("800.webp"))).status).toBe(200);
    } finally {
      await new Promise((resolve) => other.close(resolve));
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});
