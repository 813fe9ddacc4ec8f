import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cleanOriginal, inspectPicture, renderCrop, renderVariant } from "./picture";

const RED = { r: 200, g: 16, b: 32 };

function solid(width: number, height: number, background = RED) {
  return sharp({ create: { width, height, channels: 3, background } });
}

function noisy(width: number, height: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 30 },
    },
  });
}

const BLUE = { r: 16, g: 32, b: 200 };
const GREY = { r: 128, g: 128, b: 128 };

/** A grey picture with a red block in its top left corner and a blue one in its bottom right. */
async function corners(width: number, height: number, block = 200) {
  const square = (colour: typeof RED) => solid(block, block, colour).png().toBuffer();
  return solid(width, height, GREY).composite([
    { input: await square(RED), top: 0, left: 0 },
    { input: await square(BLUE), top: height - block, left: width - block },
  ]);
}

/** The colour of one pixel, as red, blue or grey. */
async function colourAt(bytes: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  const [r = 0, g = 0, b = 0] = [data[at], data[at + 1], data[at + 2]];
  if (r > 150 && g < 80 && b < 80) return "red";
  if (b > 150 && r < 80) return "blue";
  if (Math.abs(r - 128) < 30 && Math.abs(g - 128) < 30 && Math.abs(b - 128) < 30) return "grey";
  return `rgb(${r}, ${g}, ${b})`;
}

describe("inspectPicture", () => {
  it.each([
    ["jpeg", () => solid(300, 200).jpeg().toBuffer()],
    ["png", () => solid(300, 200).png().toBuffer()],
    ["webp", () => solid(300, 200).webp().toBuffer()],
    ["avif", () => solid(300, 200).avif().toBuffer()],
    ["gif", () => solid(300, 200).gif().toBuffer()],
  ])("takes %s, judged by its bytes", async (format, make) => {
    const result = await inspectPicture(await make());
    expect(result).toEqual({
      kind: "picture",
      picture: { format, width: 300, height: 200, dominant: expect.any(String), animated: false },
    });
    if (result.kind !== "picture") return;
    // The dominant colour is near the fill, whatever the format's colour rounding.
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.picture.dominant.slice(i, i + 2), 16));
    expect(Math.abs((r ?? 0) - RED.r)).toBeLessThan(24);
    expect(Math.abs((g ?? 0) - RED.g)).toBeLessThan(24);
    expect(Math.abs((b ?? 0) - RED.b)).toBeLessThan(24);
  });

  it("reports the size as displayed when the picture asks to be turned", async () => {
    const turned = await solid(300, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(await inspectPicture(turned)).toMatchObject({
      picture: { width: 200, height: 300 },
    });
  });

  it.each([
    [
      "SVG",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'),
      "not a photo format: svg",
    ],
    ["HTML", Buffer.from("<!doctype html><html><body>Not found</body></html>"), "unsupported"],
    ["nothing", Buffer.alloc(0), "empty"],
  ])("refuses %s", async (_name, bytes, reason) => {
    expect(await inspectPicture(bytes)).toEqual({
      kind: "refused",
      problem: "format",
      reason: expect.stringContaining(reason),
    });
  });

  it("refuses a format pages cannot show, such as TIFF", async () => {
    expect(await inspectPicture(await solid(20, 20).tiff().toBuffer())).toEqual({
      kind: "refused",
      problem: "format",
      reason: "not a photo format: tiff",
    });
  });

  it("refuses a picture cut short as unreadable", async () => {
    const whole = await noisy(400, 300).jpeg().toBuffer();
    expect(await inspectPicture(whole.subarray(0, whole.byteLength / 2))).toEqual({
      kind: "refused",
      problem: "unreadable",
      reason: expect.stringContaining("premature end"),
    });
  });

  it("refuses a small file that decodes to too many pixels, before decoding it", async () => {
    const huge = await sharp({
      create: { width: 10_000, height: 10_000, channels: 3, background: "#000" },
      limitInputPixels: false,
    })
      .toColourspace("b-w")
      .png({ compressionLevel: 1 })
      .toBuffer();
    expect(huge.byteLength).toBeLessThan(2 * 1024 * 1024);
    const started = Date.now();
    expect(await inspectPicture(huge)).toEqual({
      kind: "refused",
      problem: "pixels",
      reason: "Input image exceeds pixel limit",
    });
    expect(Date.now() - started).toBeLessThan(500);
  });

  // 30 megapixels: under the general cap, over the one for PNG and GIF (issue 32: a 40 megapixel
  // PNG of 300 KB took 7 s to inspect).
  it("refuses a PNG of too many pixels from its header, and takes a JPEG of as many", async () => {
    const png = await solid(6000, 5000).png().toBuffer();
    expect(png.byteLength).toBeLessThan(1024 * 1024);
    expect(await inspectPicture(png)).toEqual({
      kind: "refused",
      problem: "lossless-pixels",
      reason: "PNG of 30.0 megapixels: PNG and GIF are taken up to 16",
    });
    const jpeg = await solid(6000, 5000).jpeg().toBuffer();
    expect(await inspectPicture(jpeg)).toMatchObject({
      kind: "picture",
      picture: { format: "jpeg", width: 6000, height: 5000 },
    });
    expect(await inspectPicture(await solid(4000, 4000).png().toBuffer())).toMatchObject({
      kind: "picture",
      picture: { format: "png", width: 4000, height: 4000 },
    });
  });

  it("sees an animation, and its variants keep the first frame only", async () => {
    const frames = await Promise.all([
      solid(40, 30).png().toBuffer(),
      solid(40, 30, { r: 0, g: 0, b: 255 }).png().toBuffer(),
    ]);
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect(await inspectPicture(animated)).toMatchObject({ picture: { animated: true } });

    const variant = await renderVariant(animated, { width: 160, format: "webp" });
    const metadata = await sharp(variant).metadata();
    expect(metadata.pages ?? 1).toBe(1);
    const { dominant } = await sharp(variant).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);

    // A wide copy is cut from the first frame, not from the frames stacked as one tall picture.
    const wide = await renderVariant(animated, { width: 160, format: "webp", shape: "wide" });
    expect(await sharp(wide).metadata()).toMatchObject({ width: 40, height: 23 });
    const first = (await sharp(wide).stats()).dominant;
    expect(first.r).toBeGreaterThan(first.b);
  });
});

describe("renderVariant", () => {
  it.each([
    ["avif", "heif"],
    ["webp", "webp"],
    ["jpeg", "jpeg"],
  ] as const)("makes %s at the width asked", async (format, read) => {
    const original = await solid(1600, 1067).jpeg().toBuffer();
    const variant = await renderVariant(original, { width: 320, format });
    expect(await sharp(variant).metadata()).toMatchObject({
      format: read,
      width: 320,
      height: 213,
    });
  });

  it("cuts a wide copy from the middle of the picture, at 16:9, never enlarged", async () => {
    // A portrait picture: red above, blue in the middle band, red below.
    const band = await solid(1200, 675, BLUE).png().toBuffer();
    const original = await solid(1200, 1600)
      .composite([{ input: band, top: 462, left: 0 }])
      .jpeg()
      .toBuffer();
    const variant = await renderVariant(original, { width: 720, format: "jpeg", shape: "wide" });
    expect(await sharp(variant).metadata()).toMatchObject({ width: 720, height: 405 });
    const { dominant } = await sharp(variant).stats();
    expect(dominant.b).toBeGreaterThan(dominant.r);
    // Asked for wider than the picture: its own middle 16:9.
    const small = await solid(300, 400).png().toBuffer();
    const whole = await renderVariant(small, { width: 640, format: "webp", shape: "wide" });
    expect(await sharp(whole).metadata()).toMatchObject({ width: 300, height: 169 });
  });

  it("never enlarges", async () => {
    const original = await solid(200, 100).png().toBuffer();
    const variant = await renderVariant(original, { width: 640, format: "jpeg" });
    expect(await sharp(variant).metadata()).toMatchObject({ width: 200, height: 100 });
  });

  it("turns the picture upright and keeps none of its metadata", async () => {
    const original = await solid(300, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: "Feed Photo Agency", Artist: "Someone" } })
      .toBuffer();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const variant = await renderVariant(original, { width: 160, format: "jpeg" });
    const metadata = await sharp(variant).metadata();
    expect(metadata).toMatchObject({ width: 160, height: 240 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
  });
});

describe("cuts around a focus", () => {
  it("cuts a wide copy of a portrait picture around its focus, at the copy's size", async () => {
    const original = await (await corners(900, 1600)).png().toBuffer();
    const top = await renderVariant(original, {
      width: 480,
      format: "jpeg",
      shape: "wide",
      focus: { x: 0, y: 0 },
    });
    expect(await sharp(top).metadata()).toMatchObject({ width: 480, height: 270 });
    expect(await colourAt(top, 20, 20)).toBe("red");
    const bottom = await renderVariant(original, {
      width: 480,
      format: "jpeg",
      shape: "wide",
      focus: { x: 100, y: 100 },
    });
    expect(await colourAt(bottom, 460, 250)).toBe("blue");
    expect(await colourAt(bottom, 20, 20)).toBe("grey");
  });

  it("cuts around the focus of the picture as displayed, not as stored", async () => {
    // Stored 1600 × 900 and turned a quarter clockwise: displayed 900 × 1600, the stored top left
    // (red) at the top right.
    const original = await (await corners(1600, 900)).jpeg().withMetadata({ orientation: 6 });
    const bytes = await original.toBuffer();
    const copy = await renderVariant(bytes, {
      width: 480,
      format: "jpeg",
      shape: "wide",
      focus: { x: 100, y: 0 },
    });
    expect(await sharp(copy).metadata()).toMatchObject({ width: 480, height: 270 });
    expect(await colourAt(copy, 460, 20)).toBe("red");
  });

  it.each([
    ["og", 1200, 630],
    ["1x1", 1200, 1200],
    ["4x3", 1200, 900],
  ])("cuts the %s crop around the focus, wherever it is", async (_name, width, height) => {
    for (const [w, h] of [
      [900, 1600],
      [2400, 900],
    ] as const) {
      const original = await (await corners(w, h, 300)).png().toBuffer();
      const first = await renderCrop(original, { width, height, focus: { x: 0, y: 0 } });
      expect(await sharp(first).metadata()).toMatchObject({ width, height });
      expect(await colourAt(first, 10, 10)).toBe("red");
      const last = await renderCrop(original, { width, height, focus: { x: 100, y: 100 } });
      expect(await colourAt(last, width - 10, height - 10)).toBe("blue");
    }
  });
});

describe("cleanOriginal", () => {
  it.each([
    ["jpeg", "jpeg", () => noisy(120, 80).jpeg().toBuffer()],
    ["png", "png", () => noisy(120, 80).png().toBuffer()],
    ["webp", "webp", () => noisy(120, 80).webp().toBuffer()],
    ["avif", "heif", () => noisy(120, 80).avif({ effort: 0 }).toBuffer()],
    ["gif", "png", () => noisy(120, 80).gif().toBuffer()],
  ])("keeps a %s as %s", async (_format, read, make) => {
    const clean = await cleanOriginal(await make());
    expect(await sharp(clean).metadata()).toMatchObject({ format: read, width: 120, height: 80 });
  });
});
