import { and, inArray, isNotNull } from "drizzle-orm";
import { asArticlePicture, ownPath, sitePicture, type ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import { pictures } from "../db/schema";
import { bodyPictureUrls, withOwnPictures } from "../images/body";
import type { Logger } from "../logger";
import { uploadsNamedIn } from "./repository";

/**
 * The pictures the picture pass keeps for the given addresses (server/images/pass.ts), by address:
 * a stored copy, or a file of our own site. An address not fetched yet, or that failed, is absent.
 */
export async function picturesByUrl(
  db: Database,
  urls: readonly string[],
): Promise<Map<string, ArticlePicture>> {
  const wanted = [...new Set(urls)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ url: pictures.url, picture: pictures.picture })
    .from(pictures)
    .where(and(inArray(pictures.url, wanted), isNotNull(pictures.picture)));
  return new Map(
    rows.flatMap((row) => {
      const picture = asArticlePicture(row.picture);
      return picture ? [[row.url, picture] as const] : [];
    }),
  );
}

/**
 * How pages show an image address a source gave (a blog post's): our copy when the picture pass
 * kept one, a path of our own site as it is, otherwise none (the default picture), never another
 * host's address.
 */
export function shownPicture(
  image: string | null,
  kept: ReadonlyMap<string, ArticlePicture>,
): ArticlePicture | null {
  if (!image) return null;
  return kept.get(image) ?? sitePicture(image);
}

/**
 * Items with their `picture` as pages show it. The pictures are secondary: when they cannot be
 * read the items keep their site pictures only, and the failure is logged.
 */
export async function withShownPictures<T extends { image: string | null }>(
  db: Database,
  logger: Logger,
  items: readonly T[],
): Promise<(T & { picture: ArticlePicture | null })[]> {
  let kept: ReadonlyMap<string, ArticlePicture> = new Map();
  try {
    kept = await picturesByUrl(
      db,
      items.flatMap((item) => (item.image ? [item.image] : [])),
    );
  } catch (error) {
    logger.error({ err: error }, "pictures could not be read");
  }
  return items.map((item) => ({ ...item, picture: shownPicture(item.image, kept) }));
}

/** One item with its `picture` as pages show it (see withShownPictures). */
export async function withShownPicture<T extends { image: string | null }>(
  db: Database,
  logger: Logger,
  item: T,
): Promise<T & { picture: ArticlePicture | null }> {
  const [shown] = await withShownPictures(db, logger, [item]);
  return shown ?? { ...item, picture: shownPicture(item.image, new Map()) };
}

/**
 * A blog post's body as pages show it (the sources sanitise it against our address): its pictures
 * drawn from our copies or the site's own files, any other left out, as article bodies are.
 */
export async function withShownBody(
  db: Database,
  logger: Logger,
  html: string,
  siteUrl: string,
): Promise<string> {
  const urls = bodyPictureUrls(html);
  if (urls.length === 0) return html;
  let kept: ReadonlyMap<string, ArticlePicture> = new Map();
  let uploads: ReadonlyMap<string, ArticlePicture> = new Map();
  try {
    [kept, uploads] = await Promise.all([picturesByUrl(db, urls), uploadsNamedIn(db, html)]);
  } catch (error) {
    logger.error({ err: error }, "pictures could not be read");
  }
  const shown = new Map(
    urls.flatMap((url) => {
      // A newsroom post's pictures are its uploads (by path): drawn in every width, as stories' are.
      const picture = kept.get(url) ?? uploads.get(url) ?? ownPath(url, siteUrl)?.picture ?? null;
      return picture ? [[url, picture] as const] : [];
    }),
  );
  return withOwnPictures(html, shown, null);
}
