import { describe, expect, it } from "vitest";
import {
  asArticlePicture,
  ownPath,
  fallbackVariant,
  shapeSize,
  socialImage,
  structuredDataImages,
  variantSrcset,
  variantWidths,
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

describe("asArticlePicture", () => {
  it("takes the two shapes the picture pass writes", () => {
    expect(asArticlePicture(stored(800))).toEqual(stored(800));
    expect(asArticlePicture({ kind: "site", src: "/images/a.svg" })).toEqual({
      kind: "site",
      src: "/images/a.svg",
    });
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
