import { describe, expect, it } from "vitest";
import type { ArticlePicture } from "../../shared/picture";
import { sanitizeHtml } from "../ingest/sanitize";
import { bodyPictureUrls, withOwnPictures } from "./body";

const BASE = "https://news.example.com/story";
const HASH = "c".repeat(64);
const STORED: ArticlePicture = {
  kind: "stored",
  hash: HASH,
  width: 1400,
  height: 933,
  color: "#336699",
};

/** A body as ingest stores it: through the sanitiser. */
const body = (html: string) => sanitizeHtml(html, BASE);

describe("bodyPictureUrls", () => {
  it("lists each picture of a sanitised body once, in order, with its address resolved", () => {
    const html = body(
      '<p>One <img src="/a.jpg?x=1&amp;y=2" alt="A"></p><img src="https://cdn.example.org/b.png"><img src="/a.jpg?x=1&y=2">',
    );
    expect(bodyPictureUrls(html)).toEqual([
      "https://news.example.com/a.jpg?x=1&y=2",
      "https://cdn.example.org/b.png",
    ]);
  });

  it("finds none in a body without pictures, or with only unsafe ones (dropped by the sanitiser)", () => {
    expect(bodyPictureUrls(body("<p>Text</p>"))).toEqual([]);
    expect(
      bodyPictureUrls(body('<img src="javascript:alert(1)"><img src="data:image/png;base64,AA">')),
    ).toEqual([]);
  });
});

describe("withOwnPictures", () => {
  const kept = new Map<string, ArticlePicture>([
    ["https://cdn.example.org/kept.jpg", STORED],
    ["https://news.example.com/images/sample/a.svg", { kind: "site", src: "/images/sample/a.svg" }],
  ]);

  it("draws a kept picture from our copies, with its size, colour and alt text", () => {
    const html = withOwnPictures(
      body(
        '<figure><img src="https://cdn.example.org/kept.jpg" alt="Pier &quot;at&quot; dusk"><figcaption>Pier</figcaption></figure>',
      ),
      kept,
      null,
    );
    expect(html).not.toContain("cdn.example.org");
    expect(html).toContain(`<source type="image/avif" srcset="/images/${HASH}/160.avif 160w,`);
    expect(html).toContain(`<source type="image/webp" srcset="/images/${HASH}/160.webp 160w,`);
    // No copy beyond twice the body's 768 px column; the original is 1400 px wide.
    expect(html).toContain(`/images/${HASH}/1600.jpg 1400w"`);
    expect(html).toContain(`src="/images/${HASH}/720.jpg"`);
    expect(html).toContain('alt="Pier &quot;at&quot; dusk"');
    expect(html).toContain('width="1400" height="933" loading="lazy" decoding="async"');
    expect(html).toContain('style="background-color:#336699"');
    expect(html).toContain("<figcaption>Pier</figcaption>");
  });

  it("keeps a picture of our own site as a plain image", () => {
    const html = withOwnPictures(body('<img src="/images/sample/a.svg" alt="">'), kept, null);
    expect(html).toBe('<img src="/images/sample/a.svg" alt="" loading="lazy" decoding="async">');
  });

  it("leaves out a picture not kept (not fetched yet, or refused), and a figure left empty", () => {
    const html = withOwnPictures(
      body(
        '<p>Before</p><figure><img src="https://tracker.example.net/pixel.gif"></figure><p>After <img src="https://other.example.net/x.jpg"></p>',
      ),
      kept,
      null,
    );
    expect(html).toBe("<p>Before</p><p>After </p>");
  });

  it("does not repeat the top picture in the body", () => {
    const html = withOwnPictures(
      body('<img src="https://cdn.example.org/kept.jpg"><p>Text</p>'),
      kept,
      "https://cdn.example.org/kept.jpg",
    );
    expect(html).toBe("<p>Text</p>");
  });

  it("returns a body without pictures as it is", () => {
    const html = body("<p>Plain <strong>text</strong></p>");
    expect(withOwnPictures(html, kept, null)).toBe(html);
  });
});
