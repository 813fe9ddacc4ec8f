/**
 * The bundled sample feeds as real feeds would be: every picture they name (media:content,
 * enclosures, Atom enclosure links, `<img>` in their HTML, escaped or not, the channel's image) made
 * an absolute link to a photo on the photo host (server/test-support/photo-host.ts), round-robin over the photos,
 * one photo per item. Used by the "real photos" mode of `npm run audit` and of the benchmarks: the
 * copies are written to a folder of the run's own, with a feeds file naming them (FEEDS_FILE), and
 * ingest is allowed to fetch from loopback (IMAGE_FETCH_ALLOW_PRIVATE).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { ensurePhotos, type Photo } from "./photos";
import { startPhotoHost, type PhotoHost } from "./photo-host";

/** How the sample feeds name their pictures: paths of the site's own sample SVGs. */
const SAMPLE_PICTURE = /images\/sample\/[\w-]+\.svg/g;
const HAS_SAMPLE_PICTURE = new RegExp(SAMPLE_PICTURE.source);
const ITEM = /<(item|entry)\b[\s\S]*?<\/\1>/g;
/** A tag that may name a picture, plain (`<img …>`) or escaped in text (`&lt;img …&gt;`). */
const PICTURE_TAG =
  /(<|&lt;)(media:content|media:thumbnail|enclosure|link|img)\b([^<>]*?)(\/?(?:>|&gt;))/g;

export interface LinkedPhoto {
  url: string;
  photo: Pick<Photo, "width" | "height" | "bytes">;
}

/** One tag's attributes with the picture's address, type, size and length set to the photo's. */
function rewriteTag(attributes: string, linked: LinkedPhoto): string {
  return attributes
    .replace(SAMPLE_PICTURE, linked.url)
    .replace(/\btype="image\/svg\+xml"/, 'type="image/jpeg"')
    .replace(/\bwidth="\d+"/, `width="${linked.photo.width}"`)
    .replace(/\bheight="\d+"/, `height="${linked.photo.height}"`)
    .replace(/\blength="\d+"/, `length="${linked.photo.bytes}"`);
}

function rewritePictures(text: string, linked: LinkedPhoto): string {
  return text
    .replace(PICTURE_TAG, (tag, open: string, name: string, attributes: string, close: string) =>
      HAS_SAMPLE_PICTURE.test(attributes)
        ? `${open}${name}${rewriteTag(attributes, linked)}${close}`
        : tag,
    )
    .replace(SAMPLE_PICTURE, linked.url);
}

/**
 * A feed's text with its pictures linked to photos: each item's (or entry's) pictures to the photo
 * `next()` answers for it, then any picture outside the items (the channel's image) to the next.
 */
export function linkFeedPhotos(xml: string, next: () => LinkedPhoto): string {
  const items = xml.replace(ITEM, (item) =>
    HAS_SAMPLE_PICTURE.test(item) ? rewritePictures(item, next()) : item,
  );
  return HAS_SAMPLE_PICTURE.test(items) ? rewritePictures(items, next()) : items;
}

/**
 * Copies of the feeds of `feedsFile` (a feeds config of local files) into `outDir`, pictures linked
 * to `host`'s photos round-robin, and a feeds file naming the copies. Answers that file's path and
 * how many pictures were linked.
 */
export async function writePhotoFeeds(options: {
  feedsFile: string;
  outDir: string;
  host: Pick<PhotoHost, "url">;
  photos: readonly Photo[];
}): Promise<{ feedsFile: string; linked: number }> {
  const { outDir, host, photos } = options;
  if (photos.length === 0) throw new Error("No photos to link the feeds to");
  const config = JSON.parse(await fs.readFile(options.feedsFile, "utf8")) as Record<
    string,
    string[]
  >;
  await fs.mkdir(outDir, { recursive: true });
  let linked = 0;
  const next = (): LinkedPhoto => {
    const photo = photos[linked % photos.length] as Photo;
    linked += 1;
    return { url: host.url(photo), photo };
  };
  const rewritten: Record<string, string[]> = {};
  for (const [category, sources] of Object.entries(config)) {
    rewritten[category] = [];
    for (const source of sources) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(source)) {
        throw new Error(`${source}: only feeds read from files can be rewritten`);
      }
      const xml = await fs.readFile(path.resolve(source), "utf8");
      const target = path.join(outDir, path.basename(source));
      await fs.writeFile(target, linkFeedPhotos(xml, next));
      rewritten[category].push(target);
    }
  }
  const feedsFile = path.join(outDir, "feeds.json");
  await fs.writeFile(feedsFile, `${JSON.stringify(rewritten, null, 2)}\n`);
  return { feedsFile, linked };
}

export interface RealPhotos {
  photos: Photo[];
  host: PhotoHost;
  feedsFile: string;
  /** Settings to add to the site's environment (sampleSiteEnv's `extra`). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Everything the "real photos" mode needs: the photos (drawn or from the cache), their host
 * started, and the sample feeds rewritten into `outDir` to link them.
 */
export async function startRealPhotos(options: {
  outDir: string;
  feedsFile?: string;
}): Promise<RealPhotos> {
  const photos = await ensurePhotos();
  const host = await startPhotoHost(photos);
  try {
    const { feedsFile } = await writePhotoFeeds({
      feedsFile: options.feedsFile ?? "config/feeds.sample.json",
      outDir: options.outDir,
      host,
      photos,
    });
    return {
      photos,
      host,
      feedsFile,
      env: { FEEDS_FILE: feedsFile, IMAGE_FETCH_ALLOW_PRIVATE: "true" },
      close: () => host.close(),
    };
  } catch (error) {
    await host.close();
    throw error;
  }
}
