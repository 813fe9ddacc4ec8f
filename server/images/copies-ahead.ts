import { isNotNull } from "drizzle-orm";
import {
  FORMAT_FILES,
  variantWidths,
  type VariantFormat,
  type VariantWidth,
} from "../../shared/picture";
import type { DatabaseHandle } from "../db/client";
import { pictures } from "../db/schema";
import type { Logger } from "../logger";
import { inlinePictureMaker, type PictureMaker } from "./picture-maker";
import type { PictureStore } from "./store";

/**
 * Copies made as soon as a picture is kept, so that the first reader of a page does not wait for
 * them: the wide (16:9) AVIF widths most slots pick on phones (a 343–380 px card at about two
 * device pixels per CSS pixel: 686–665 px, so 720) and on desktop cards (400–436 px at one). Others
 * are made on their first request (server/images/route.ts).
 */
const AHEAD_OF_TIME: readonly { width: VariantWidth; format: VariantFormat }[] = [
  { width: 480, format: "avif" },
  { width: 720, format: "avif" },
];

/**
 * Makes the copies of AHEAD_OF_TIME a kept picture does not have yet; one that cannot be made is
 * made on its first request instead. Answers how many were made.
 */
export async function makeCopiesAhead(
  store: PictureStore,
  maker: PictureMaker,
  logger: Logger,
  picture: {
    hash: string;
    original: Uint8Array;
    size: { width: number; height: number };
    url: string;
  },
  signal?: AbortSignal,
): Promise<number> {
  // Only copies that differ: a picture narrower than a width gets that width's copy at its own size.
  const files = new Set(variantWidths(picture.size, "wide").map((w) => w.file));
  let made = 0;
  for (const { width, format } of AHEAD_OF_TIME) {
    // Out of time: made on their first request instead.
    if (signal?.aborted) break;
    if (!files.has(width)) continue;
    const file = `wide-${width}.${FORMAT_FILES[format].extension}`;
    if (await store.getVariant(picture.hash, file)) continue;
    try {
      const bytes = await maker.variant(picture.original, { width, format, shape: "wide" });
      await store.putVariant(picture.hash, file, bytes);
      made += 1;
    } catch (error) {
      logger.warn({ picture: picture.url, file, err: error }, "picture copy not made ahead");
    }
  }
  return made;
}

/**
 * Makes the copies made ahead of time for every kept picture that lacks them: for pictures kept
 * before a change of which copies are made ahead (`news pictures --make-copies`), so that their
 * first readers do not wait for them either.
 */
export async function makeMissingCopiesAhead(options: {
  database: DatabaseHandle;
  store: PictureStore;
  maker?: PictureMaker;
  logger: Logger;
}): Promise<{ pictures: number; made: number }> {
  const maker = options.maker ?? inlinePictureMaker();
  const rows = await options.database.db
    .selectDistinctOn([pictures.hash], {
      hash: pictures.hash,
      picture: pictures.picture,
      url: pictures.url,
    })
    .from(pictures)
    .where(isNotNull(pictures.hash))
    .orderBy(pictures.hash);
  let made = 0;
  for (const row of rows) {
    const picture = row.picture;
    if (!row.hash || picture?.kind !== "stored") continue;
    // The store may have removed the original (least recently used): the next pass fetches it again.
    const original = await options.store.getOriginal(row.hash);
    if (original) {
      made += await makeCopiesAhead(options.store, maker, options.logger, {
        hash: row.hash,
        original,
        size: picture,
        url: row.url,
      });
    }
  }
  return { pictures: rows.length, made };
}
