import { describe, expect, it } from "vitest";
import { pagePictures } from "./page-pictures";

const HASH = "a".repeat(64);
const OTHER = "b".repeat(64);
const ORIGIN = "http://127.0.0.1:3400";

describe("pagePictures", () => {
  it("sorts what <picture>, <img> and image preloads name into stored copies, site files and other origins", () => {
    const html = `<head>
<link rel="preload" as="image" imagesrcset="/images/${HASH}/640.avif 640w, /images/${HASH}/960.avif 960w" imagesizes="100vw" fetchpriority="high">
<link rel="stylesheet" href="/assets/root.css">
<link rel="preload" as="font" href="/fonts/a.woff2">
</head><body>
<picture><source type="image/avif" srcset="/images/${HASH}/640.avif 640w,/images/${HASH}/960.avif 960w">
<source type="image/webp" srcset="/images/${HASH}/640.webp 640w">
<img src="/images/${HASH}/640.jpg" srcset="/images/${HASH}/640.jpg 640w, /images/${HASH}/1200.jpg 1200w" width="1600" height="1067" alt=""></picture>
<img src='/images/sample/beach.svg' alt="">
<img src="http://127.0.0.2:8123/photos/a.jpg?w=1&amp;h=2" alt="">
<img src="//cdn.example.org/x.jpg" alt="">
<img src="data:image/gif;base64,R0lGOD" alt="">
<img src="${ORIGIN}/images/${OTHER}/og.jpg" alt="">
<a href="/images/${OTHER}/320.avif">not a picture a browser loads</a>
</body>`;
    expect(pagePictures(html, ORIGIN)).toEqual({
      stored: [
        `/images/${HASH}/640.avif`,
        `/images/${HASH}/960.avif`,
        `/images/${HASH}/640.webp`,
        `/images/${HASH}/640.jpg`,
        `/images/${HASH}/1200.jpg`,
        `/images/${OTHER}/og.jpg`,
      ],
      site: ["/images/sample/beach.svg"],
      otherOrigins: ["http://127.0.0.2:8123/photos/a.jpg?w=1&h=2", "http://cdn.example.org/x.jpg"],
    });
  });

  it("finds nothing in a page without pictures", () => {
    expect(pagePictures("<p>No pictures</p>", ORIGIN)).toEqual({
      stored: [],
      site: [],
      otherOrigins: [],
    });
  });
});
