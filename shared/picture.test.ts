import { describe, expect, it } from "vitest";
import {
  addressFocus,
  asArticlePicture,
  aspectSize,
  cropPath,
  cropRegion,
  CROPS,
  fallbackVariant,
  focusInCopy,
  ownPath,
  shapeSize,
  socialImage,
  structuredDataImages,
  uploadedPicture,
  variantPath,
  variantSrcset,
  variantWidths,
  wideFocus,
  type StoredPicture,
} from "./picture";

const HASH = "ab".repeat(32);
const stored = (width: number, height = Math.round(width / 1.5)): StoredPicture => ({
  kind: "stored",
  hash: HASH,
  width,
  height,
  color: "#102030",
});

describe("variantWidths", () => {
  it("lists the widths below the original and the next one up at the original's own width", () => {
    expect(variantWidths({ width: 1000, height: 667 })).toEqual([
      { file: 160, actual: 160 },
      { file: 320, actual: 320 },
      { file: 480, actual: 480 },
      { file: 640, actual: 640 },
      { file: 720, actual: 720 },
      { file: 800, actual: 800 },
      { file: 960, actual: 960 },
      { file: 1200, actual: 1000 },
    ]);
  });

  it("lists a small original once, at its own size", () => {
    expect(variantWidths({ width: 120, height: 80 })).toEqual([{ file: 160, actual: 120 }]);
  });

  it("cuts wide copies to the middle 16:9 of the picture, never enlarged", () => {
    // A 3:2 landscape keeps its width; a portrait its width; a panorama its height.
    expect(shapeSize({ width: 1200, height: 800 }, "wide")).toEqual({ width: 1200, height: 675 });
    expect(shapeSize({ width: 1200, height: 1600 }, "wide")).toEqual({ width: 1200, height: 675 });
    expect(shapeSize({ width: 3000, height: 900 }, "wide")).toEqual({ width: 1600, height: 900 });
    expect(shapeSize({ width: 1, height: 1 }, "wide")).toEqual({ width: 1, height: 1 });
    expect(variantWidths({ width: 3000, height: 450 }, "wide").at(-1)).toEqual({
      file: 800,
      actual: 800,
    });
    expect(variantWidths({ width: 3000, height: 400 }, "wide").at(-1)).toEqual({
      file: 720,
      actual: 711,
    });
  });

  it("stops at the widest copy for a very large original", () => {
    expect(variantWidths({ width: 5000, height: 3000 }).at(-1)).toEqual({
      file: 1600,
      actual: 1600,
    });
  });
});

describe("srcset and fallback", () => {
  it("names our copies with their true widths, up to the slot's limit", () => {
    expect(variantSrcset(stored(1000), "avif", { maxWidth: 700 })).toBe(
      `/images/${HASH}/160.avif 160w, /images/${HASH}/320.avif 320w, /images/${HASH}/480.avif 480w, /images/${HASH}/640.avif 640w`,
    );
    expect(variantSrcset(stored(1000), "jpeg")).toContain(`/images/${HASH}/1200.jpg 1000w`);
  });

  it("gives a slot narrower than every copy the smallest one", () => {
    expect(variantSrcset(stored(1000), "webp", { maxWidth: 100 })).toBe(
      `/images/${HASH}/160.webp 160w`,
    );
  });

  it("names wide copies apart from whole ones", () => {
    expect(variantSrcset(stored(1000, 1400), "avif", { maxWidth: 700, shape: "wide" })).toBe(
      `/images/${HASH}/wide-160.avif 160w, /images/${HASH}/wide-320.avif 320w, /images/${HASH}/wide-480.avif 480w, /images/${HASH}/wide-640.avif 640w`,
    );
    expect(fallbackVariant(stored(1000), 768, "wide")).toBe(`/images/${HASH}/wide-720.jpg`);
  });

  it("picks the widest JPEG that fits the slot for <img src>", () => {
    expect(fallbackVariant(stored(1000), 768)).toBe(`/images/${HASH}/720.jpg`);
    expect(fallbackVariant(stored(120), 768)).toBe(`/images/${HASH}/160.jpg`);
  });
});

describe("previews", () => {
  it("use the 1200 × 630 crop for social cards and three crops for structured data", () => {
    expect(socialImage(stored(1600), "Alt")).toEqual({
      url: `/images/${HASH}/og.jpg`,
      width: 1200,
      height: 630,
      alt: "Alt",
    });
    expect(structuredDataImages(stored(1600))).toEqual([
      `/images/${HASH}/16x9.jpg`,
      `/images/${HASH}/4x3.jpg`,
      `/images/${HASH}/1x1.jpg`,
    ]);
  });

  it("use a site picture's own file, and nothing when there is no picture", () => {
    expect(socialImage({ kind: "site", src: "/images/sample/a.svg" }, "Alt")).toEqual({
      url: "/images/sample/a.svg",
      alt: "Alt",
    });
    expect(socialImage(null, "Alt")).toBeNull();
    expect(structuredDataImages(null)).toBeNull();
  });
});

describe("focus", () => {
  const LANDSCAPE = { width: 1600, height: 900 };
  const PORTRAIT = { width: 900, height: 1600 };

  it("sizes each crop's part as the largest of its proportions in the picture", () => {
    expect(aspectSize(LANDSCAPE, CROPS["1x1"])).toEqual({ width: 900, height: 900 });
    expect(aspectSize(LANDSCAPE, CROPS.og)).toEqual({ width: 1600, height: 840 });
    expect(aspectSize(LANDSCAPE, CROPS["16x9"])).toEqual({ width: 1600, height: 900 });
    expect(aspectSize(PORTRAIT, CROPS.og)).toEqual({ width: 900, height: 473 });
    expect(aspectSize(PORTRAIT, CROPS["4x3"])).toEqual({ width: 900, height: 675 });
    expect(aspectSize({ width: 1, height: 1000 }, CROPS.og)).toEqual({ width: 1, height: 1 });
  });

  it.each([
    // [picture, part, focus, left, top]
    ["landscape, centred without a focus", LANDSCAPE, 900, 900, undefined, 350, 0],
    ["landscape, focus at the left edge", LANDSCAPE, 900, 900, { x: 0, y: 50 }, 0, 0],
    ["landscape, focus at the right edge", LANDSCAPE, 900, 900, { x: 100, y: 50 }, 700, 0],
    ["landscape, focus left of the middle", LANDSCAPE, 900, 900, { x: 30, y: 0 }, 30, 0],
    ["landscape, focus near the edge", LANDSCAPE, 900, 900, { x: 20, y: 100 }, 0, 0],
    ["portrait, centred without a focus", PORTRAIT, 900, 506, undefined, 0, 547],
    ["portrait, focus at the top", PORTRAIT, 900, 506, { x: 0, y: 0 }, 0, 0],
    ["portrait, focus at the bottom", PORTRAIT, 900, 506, { x: 100, y: 100 }, 0, 1094],
    ["portrait, focus at a quarter", PORTRAIT, 900, 506, { x: 50, y: 25 }, 0, 147],
    ["a part as large as the picture", PORTRAIT, 900, 1600, { x: 0, y: 100 }, 0, 0],
    ["a part larger than the picture", PORTRAIT, 2000, 2000, { x: 100, y: 100 }, 0, 0],
  ])(
    "cuts a part around the focus, as near its middle as the edges allow: %s",
    (_name, picture, width, height, focus, left, top) => {
      const region = cropRegion(picture, { width, height }, focus);
      expect(region).toEqual({
        left,
        top,
        width: Math.min(width, picture.width),
        height: Math.min(height, picture.height),
      });
    },
  );

  it("writes a focus in steps of 5 %, within 0–100", () => {
    expect(addressFocus({ x: 37, y: 38 })).toEqual({ x: 35, y: 40 });
    expect(addressFocus({ x: 2.5, y: 97.4 })).toEqual({ x: 5, y: 95 });
    expect(addressFocus({ x: -3, y: 102 })).toEqual({ x: 0, y: 100 });
  });

  it("names focused copies and crops apart from the others", () => {
    expect(variantPath(HASH, 640, "avif", "wide", { x: 37, y: 60 })).toBe(
      `/images/${HASH}/wide-f35x60-640.avif`,
    );
    expect(variantPath(HASH, 640, "avif", "whole", { x: 37, y: 60 })).toBe(
      `/images/${HASH}/640.avif`,
    );
    expect(variantPath(HASH, 640, "jpeg", "wide")).toBe(`/images/${HASH}/wide-640.jpg`);
    expect(cropPath(HASH, "og", { x: 0, y: 100 })).toBe(`/images/${HASH}/og-f0x100.jpg`);
    expect(cropPath(HASH, "1x1")).toBe(`/images/${HASH}/1x1.jpg`);
  });

  it("puts the focus in wide copies' addresses only where it moves their cut", () => {
    const portrait = { ...stored(900, 1600), focus: { x: 10, y: 22 } };
    expect(wideFocus(portrait)).toEqual({ x: 10, y: 20 });
    expect(variantSrcset(portrait, "avif", { maxWidth: 500, shape: "wide" })).toBe(
      `/images/${HASH}/wide-f10x20-160.avif 160w, /images/${HASH}/wide-f10x20-320.avif 320w, /images/${HASH}/wide-f10x20-480.avif 480w`,
    );
    expect(fallbackVariant(portrait, 700, "wide")).toBe(`/images/${HASH}/wide-f10x20-640.jpg`);
    // Whole copies are never cut.
    expect(variantSrcset(portrait, "webp", { maxWidth: 200 })).toBe(
      `/images/${HASH}/160.webp 160w`,
    );
    // A picture of 16:9 already, or a focus in the middle: the copies every picture has.
    const sixteenNine = { ...stored(1600, 900), focus: { x: 10, y: 90 } };
    expect(wideFocus(sixteenNine)).toBeUndefined();
    expect(fallbackVariant(sixteenNine, 700, "wide")).toBe(`/images/${HASH}/wide-640.jpg`);
    expect(wideFocus({ ...stored(900, 1600), focus: { x: 10, y: 51 } })).toBeUndefined();
    expect(wideFocus(stored(900, 1600))).toBeUndefined();
  });

  it("names focused crops for previews and structured data", () => {
    const picture = { ...stored(1600), focus: { x: 36, y: 61 } };
    expect(socialImage(picture, "Alt")).toEqual({
      url: `/images/${HASH}/og-f35x60.jpg`,
      width: 1200,
      height: 630,
      alt: "Alt",
    });
    expect(structuredDataImages(picture)).toEqual([
      `/images/${HASH}/16x9-f35x60.jpg`,
      `/images/${HASH}/4x3-f35x60.jpg`,
      `/images/${HASH}/1x1-f35x60.jpg`,
    ]);
  });

  it("says where the focus lies in a copy, for a box the copy covers", () => {
    expect(focusInCopy(stored(900, 1600), "whole")).toBeUndefined();
    const portrait = { ...stored(900, 1600), focus: { x: 30, y: 90 } };
    expect(focusInCopy(portrait, "whole")).toEqual({ x: 30, y: 90 });
    // The wide copy is the bottom 900 × 506 (the focus's 90 % is within 253 px of the edge).
    expect(focusInCopy(portrait, "wide")).toEqual({ x: 30, y: 68 });
  });
});

describe("asArticlePicture", () => {
  it("takes the two shapes the picture pass writes", () => {
    expect(asArticlePicture(stored(800))).toEqual(stored(800));
    expect(asArticlePicture({ kind: "site", src: "/images/a.svg" })).toEqual({
      kind: "site",
      src: "/images/a.svg",
    });
  });

  it("keeps a focus within the picture, and leaves out any other", () => {
    const focused = { ...stored(800), focus: { x: 0, y: 100 } };
    expect(asArticlePicture(focused)).toEqual(focused);
    for (const focus of [{ x: 150, y: 50 }, { x: "50", y: 50 }, { x: 50 }, "50 50", null]) {
      expect(asArticlePicture({ ...stored(800), focus })).toEqual(stored(800));
    }
  });

  it.each([
    ["nothing", null],
    ["a string", "https://example.com/a.jpg"],
    ["a short hash", { ...stored(800), hash: "abc" }],
    ["a zero width", { ...stored(800), width: 0 }],
    ["a colour that is CSS", { ...stored(800), color: "red;background:url(x)" }],
    ["another host's address", { kind: "site", src: "//evil.example/a.jpg" }],
    ["an absolute address", { kind: "site", src: "https://evil.example/a.jpg" }],
  ])("refuses %s", (_name, value) => {
    expect(asArticlePicture(value)).toBeNull();
  });
});

describe("ownPath", () => {
  const SITE = "https://news.example.org";
  it.each([
    [
      "an address on our origin in the picture folder",
      `${SITE}/images/sample/a.svg`,
      "/images/sample/a.svg",
      true,
    ],
    ["a path in the picture folder", "/images/sample/a.svg", "/images/sample/a.svg", true],
    [
      "a path of ours that is no picture",
      `${SITE}/x/onerror=alert(1)`,
      "/x/onerror=alert(1)",
      false,
    ],
    ["a page of ours", "/article/x", "/article/x", false],
  ])("knows %s", (_name, url, path, picture) => {
    expect(ownPath(url, SITE)).toEqual({
      path,
      picture: picture ? { kind: "site", src: path } : null,
    });
  });

  it("answers null for another host's address", () => {
    expect(ownPath("https://cdn.example.net/images/a.jpg", SITE)).toBeNull();
    expect(ownPath("//cdn.example.net/images/a.jpg", SITE)).toBeNull();
  });
});

describe("uploadedPicture", () => {
  it("draws an upload row as a stored picture with its focal point, and nothing else", () => {
    const row = { id: 4, hash: "a".repeat(64), width: 1600, height: 900, color: "#334455" };
    const upload = { ...row, focusX: 30, focusY: 70, alt: "Pier" };
    expect(uploadedPicture(upload)).toEqual({
      kind: "stored",
      hash: row.hash,
      width: 1600,
      height: 900,
      color: "#334455",
      focus: { x: 30, y: 70 },
    });
  });
});
