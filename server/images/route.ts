import express from "express";
import { VARIANT_WIDTHS, type VariantFormat, type VariantWidth } from "./variants";
import { HASH, type PictureStore } from "./store";

/**
 * `GET /images/<sha256>/<width>.<avif|webp|jpg>`: a copy of a picture already in the store, made
 * on its first request and kept. Only stored pictures are served, by hash: the route never fetches
 * anything, so it cannot be used to fetch other sites through ours. Its answers never change, so
 * browsers and CDNs keep them for a year.
 *
 * Mounted in server/http/app.ts. Nothing puts pictures in the store yet: ingest does not fetch feed
 * pictures and pages still show them from the feed hosts (decision 022 lists what remains).
 */

const EXTENSIONS: Record<string, { format: VariantFormat; type: string }> = {
  avif: { format: "avif", type: "image/avif" },
  webp: { format: "webp", type: "image/webp" },
  jpg: { format: "jpeg", type: "image/jpeg" },
};

const FILE = /^(\d{1,4})\.(avif|webp|jpg)$/;

function isVariantWidth(width: number): width is VariantWidth {
  return VARIANT_WIDTHS.some((allowed) => allowed === width);
}

export function pictureRoutes(store: PictureStore): express.Router {
  const variants = variantMaker(store);
  const router = express.Router();
  router.get("/images/:hash/:file", async (req, res, next) => {
    const match = FILE.exec(req.params.file);
    const width = Number(match?.[1]);
    const extension = EXTENSIONS[match?.[2] ?? ""];
    // Not a picture's address: the site's own files under /images (public/images) or its 404 page.
    if (!HASH.test(req.params.hash) || !extension || !isVariantWidth(width)) return next();
    const bytes = await variants(req.params.hash, width, extension.format, req.params.file);
    if (!bytes) {
      res.status(404).type("text/plain").send("No such picture.");
      return;
    }
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type(extension.type);
    // Express adds the ETag, answers a matching If-None-Match with 304 and HEAD without a body.
    res.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  return router;
}

/**
 * Finds a copy in the store, or makes it from the original. One copy is made at a time in a
 * process (each takes a core and tens of megabytes while it is made), and requests for a copy
 * being made wait for that one.
 */
function variantMaker(store: PictureStore) {
  const making = new Map<string, Promise<Uint8Array | null>>();
  let queue: Promise<unknown> = Promise.resolve();

  async function make(hash: string, width: VariantWidth, format: VariantFormat, file: string) {
    const original = await store.getOriginal(hash);
    if (!original) return null;
    // sharp and libvips (about 20 MB) are loaded by the first copy made, not by every web process.
    const { renderVariant } = await import("./picture");
    const turn = queue.then(() => renderVariant(original, { width, format }));
    queue = turn.catch(() => undefined);
    const bytes = await turn;
    await store.putVariant(hash, file, bytes);
    return bytes;
  }

  return async (hash: string, width: VariantWidth, format: VariantFormat, file: string) => {
    const kept = await store.getVariant(hash, file);
    if (kept) return kept;
    const key = `${hash}/${file}`;
    let pending = making.get(key);
    if (!pending) {
      pending = make(hash, width, format, file).finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };
}
