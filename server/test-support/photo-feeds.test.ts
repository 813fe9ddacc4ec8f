import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFeedSources } from "../ingest/feeds-config";
import { readFeedDocument } from "../ingest/feed-document";
import { feedFromDocument } from "../ingest/parse";
import { linkFeedPhotos, writePhotoFeeds, type LinkedPhoto } from "./photo-feeds";
import type { Photo } from "./photos";

const PHOTOS: Photo[] = [
  { name: "a", file: "/nowhere/a.jpg", bytes: 300_000, width: 1600, height: 1067, sha256: "a" },
  { name: "b", file: "/nowhere/b.jpg", bytes: 400_000, width: 1200, height: 1600, sha256: "b" },
  { name: "c", file: "/nowhere/c.jpg", bytes: 500_000, width: 2000, height: 1333, sha256: "c" },
];
const HOST = {
  url: (photo: Pick<Photo, "name">) => `http://127.0.0.2:8123/photos/${photo.name}.jpg`,
};

function roundRobin(): () => LinkedPhoto {
  let n = 0;
  return () => {
    const photo = PHOTOS[n++ % PHOTOS.length] as Photo;
    return { url: HOST.url(photo), photo };
  };
}

describe("linkFeedPhotos", () => {
  it("links every kind of picture an item names to one photo, with its type, size and length", () => {
    const rss = `<rss xmlns:media="http://search.yahoo.com/mrss/"><channel>
<image><url>images/sample/skyline.svg</url></image>
<item><title>One</title><media:content url="images/sample/harbor.svg" medium="image" type="image/svg+xml" width="800" height="450"/>
<description><![CDATA[<p><img src="images/sample/harbor.svg" alt="" width="800" height="450" /></p>]]></description></item>
<item><title>Two</title><enclosure url="images/sample/ev.svg" type="image/svg+xml" length="737"/></item>
<item><title>Three</title><description>&lt;p&gt;&lt;img src="images/sample/laptop.svg" alt="" /&gt;&lt;/p&gt;</description></item>
<item><title>No picture</title><link>https://sample.example.org/x</link></item>
</channel></rss>`;
    const out = linkFeedPhotos(rss, roundRobin());
    expect(out).not.toContain("images/sample/");
    expect(out).not.toContain("image/svg+xml");
    expect(out).toContain(
      '<media:content url="http://127.0.0.2:8123/photos/a.jpg" medium="image" type="image/jpeg" width="1600" height="1067"/>',
    );
    expect(out).toContain(
      '<img src="http://127.0.0.2:8123/photos/a.jpg" alt="" width="1600" height="1067" />',
    );
    expect(out).toContain(
      '<enclosure url="http://127.0.0.2:8123/photos/b.jpg" type="image/jpeg" length="400000"/>',
    );
    expect(out).toContain('&lt;img src="http://127.0.0.2:8123/photos/c.jpg" alt="" /&gt;');
    // The channel's image comes after the items: the next photo round.
    expect(out).toContain("<url>http://127.0.0.2:8123/photos/a.jpg</url>");
    expect(out).toContain(
      "<item><title>No picture</title><link>https://sample.example.org/x</link></item>",
    );
  });

  it("links Atom enclosure links and leaves other links alone", () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title>
<link rel="alternate" type="text/html" href="https://sample.example.org/a"/>
<link rel="enclosure" type="image/svg+xml" length="697" href="images/sample/harbor.svg"/></entry></feed>`;
    const out = linkFeedPhotos(atom, roundRobin());
    expect(out).toContain(
      '<link rel="alternate" type="text/html" href="https://sample.example.org/a"/>',
    );
    expect(out).toContain(
      '<link rel="enclosure" type="image/jpeg" length="300000" href="http://127.0.0.2:8123/photos/a.jpg"/>',
    );
  });
});

describe("writePhotoFeeds", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "photo-feeds-test-"));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("rewrites the bundled sample feeds so that every item's picture is a photo on the host", async () => {
    const { feedsFile, linked } = await writePhotoFeeds({
      feedsFile: "config/feeds.sample.json",
      outDir: dir,
      host: HOST,
      photos: PHOTOS,
    });
    const sources = loadFeedSources(feedsFile);
    const original = loadFeedSources("config/feeds.sample.json");
    expect(sources.map((s) => s.category)).toEqual(original.map((s) => s.category));
    expect(sources.every((s) => path.isAbsolute(s.url) && s.url.startsWith(dir))).toBe(true);

    const used = new Map<string, number>();
    let withPictures = 0;
    let channelPictures = 0;
    for (const [i, source] of sources.entries()) {
      const text = await fs.readFile(source.url, "utf8");
      const originalText = await fs.readFile(original[i]?.url ?? "", "utf8");
      const outside = originalText.replace(/<(item|entry)\b[\s\S]*?<\/\1>/g, "");
      if (outside.includes("images/sample/")) channelPictures += 1;
      expect(text).not.toMatch(/images\/sample\//);
      const feed = feedFromDocument(readFeedDocument(text), { channelLinkAsBase: false });
      const before = feedFromDocument(readFeedDocument(originalText), { channelLinkAsBase: false });
      // Same items, same titles: only the pictures changed.
      expect(feed.items.map((item) => item.title)).toEqual(before.items.map((item) => item.title));
      const pictures = (item: (typeof feed.items)[number]) => {
        const html = `${item.summary ?? ""}${item.content ?? ""}`;
        const inline = [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? "");
        return [...item.images, ...inline];
      };
      for (const [j, item] of feed.items.entries()) {
        const urls = pictures(item);
        // The same pictures in the same places, each now a photo on the host.
        expect(urls.length, `${source.url}: ${item.title}`).toBe(
          pictures(before.items[j] ?? item).length,
        );
        for (const url of urls)
          expect(url).toMatch(/^http:\/\/127\.0\.0\.2:8123\/photos\/[abc]\.jpg$/);
        if (urls.length === 0) continue;
        withPictures += 1;
        // One photo per item, wherever the item names it.
        expect(new Set(urls).size).toBe(1);
        used.set(urls[0] ?? "", (used.get(urls[0] ?? "") ?? 0) + 1);
      }
    }
    expect(withPictures).toBeGreaterThan(200);
    // Each item's photo, and each channel's image.
    expect(linked).toBe(withPictures + channelPictures);
    // Round-robin: every photo used, about as often as the others.
    expect(used.size).toBe(PHOTOS.length);
    const counts = [...used.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });
});
