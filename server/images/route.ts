import express from "express";
import { addressFocus, type Focus } from "../../shared/picture";
import {
  CROPS,
  VARIANT_WIDTHS,
  type CropName,
  type VariantFormat,
  type VariantShape,
  type VariantWidth,
} from "./variants";
import { inlinePictureMaker, type PictureMaker } from "./picture-maker";
import { HASH, PictureStoreUnavailableError, type PictureStore } from "./store";

/**
 * `GET /images/<sha256>/<width>.<avif|webp|jpg>`: a copy of a picture already in the store, made
 * on its first request and kept (`wide-<width>.…`: of its middle 16:9; `wide-f<x>x<y>-<width>.…`:
 * of the 16:9 around the point x % from its left and y % from its top);
 * `GET /images/<sha256>/<og|16x9|4x3|1x1>[-f<x>x<y>].jpg`: a fixed crop of it (social previews and
 * structured data), around that point when named, made and kept the same way. A point is named in
 * steps of FOCUS_STEP (shared/picture.ts) only, so a picture has a bounded number of copies.
 * Only stored pictures are served, by hash: the route never fetches anything, so it cannot be used
 * to fetch other sites through ours. Its answers never change, so browsers and CDNs keep them for
 * a year.
 *
 * Mounted in server/http/app.ts; the picture pass (server/images/pass.ts) puts the originals in the
 * store.
 */

const EXTENSIONS: Record<string, { format: VariantFormat; type: string }> = {
  avif: { format: "avif", type: "image/avif" },
  webp: { format: "webp", type: "image/webp" },
  jpg: { format: "jpeg", type: "image/jpeg" },
};

// Numbers as the pages write them, without leading zeros: each copy has one name, so it is made
// and kept once. A focus is only for cuts: a whole copy has none.
const FOCUS = "f(0|[1-9]\\d{0,2})x(0|[1-9]\\d{0,2})";
const FILE = new RegExp(`^(?:(wide-)(?:${FOCUS}-)?)?([1-9]\\d{0,3})\\.(avif|webp|jpg)$`);
const CROP_FILE = new RegExp(`^(og|16x9|4x3|1x1)(?:-${FOCUS})?\\.jpg$`);

/** What a file name asks for: a copy at a width, a crop, or nothing a picture has. */
type Wanted =
  | {
      kind: "variant";
      width: VariantWidth;
      format: VariantFormat;
      shape: VariantShape;
      focus?: Focus;
      type: string;
    }
  | { kind: "crop"; crop: CropName; focus?: Focus; type: string };

/**
 * The focus a file name names: none, or one as the pages write it (addressFocus, in its steps);
 * null for any other, which is no picture's address.
 */
function focusOf(x: string | undefined, y: string | undefined): Focus | undefined | null {
  if (x === undefined || y === undefined) return undefined;
  const focus = { x: Number(x), y: Number(y) };
  const written = addressFocus(focus);
  return written.x === focus.x && written.y === focus.y ? focus : null;
}

function wanted(file: string): Wanted | null {
  const cropped = CROP_FILE.exec(file);
  if (cropped) {
    const focus = focusOf(cropped[2], cropped[3]);
    if (focus === null) return null;
    const crop = cropped[1] as CropName;
    return { kind: "crop", crop, type: "image/jpeg", ...(focus ? { focus } : {}) };
  }
  const match = FILE.exec(file);
  const width = Number(match?.[4]);
  const extension = EXTENSIONS[match?.[5] ?? ""];
  const focus = focusOf(match?.[2], match?.[3]);
  if (!extension || !isVariantWidth(width) || focus === null) return null;
  const shape = match?.[1] ? "wide" : "whole";
  return {
    kind: "variant",
    width,
    format: extension.format,
    shape,
    type: extension.type,
    ...(focus ? { focus } : {}),
  };
}

function isVariantWidth(width: number): width is VariantWidth {
  return VARIANT_WIDTHS.some((allowed) => allowed === width);
}

/**
 * `maker` makes the copies: the web process hands them to a child process (server/http/app.ts);
 * without one they are made in this process.
 */
/**
 * The most copies waiting to be made in a process (one is made at a time, 0.2–1.5 s each). A cold
 * page asks for one copy of each of its pictures; far more waiting is someone asking for copies
 * no page names (any focus of any picture): the next is answered 503 with Retry-After, so a
 * reader's copies never wait behind thousands, and the page shows the picture's colour meanwhile.
 */
const MAX_WAITING_COPIES = 64;

/** Seconds after which a copy refused for a full queue may be asked for again. */
const BUSY_RETRY_AFTER_SECONDS = 10;

class TooManyCopiesError extends Error {}

export function pictureRoutes(
  store: PictureStore,
  maker: PictureMaker = inlinePictureMaker(),
  maxWaiting = MAX_WAITING_COPIES,
): express.Router {
  const variants = variantMaker(store, maker, maxWaiting);
  const router = express.Router();
  router.get("/images/:hash/:file", async (req, res, next) => {
    const want = wanted(req.params.file);
    // Not a picture's address: the site's own files under /images (public/images) or its 404 page.
    if (!HASH.test(req.params.hash) || !want) return next();
    let bytes: Uint8Array | null;
    try {
      bytes = await variants(req.params.hash, want, req.params.file);
    } catch (error) {
      // The store did not answer (down, or slower than its timeouts): asked again shortly, by the
      // browser or the CDN; the page around the picture is not held up.
      if (error instanceof TooManyCopiesError) {
        req.log?.warn({ picture: req.params.hash }, "too many picture copies waiting");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
        res.status(503).type("text/plain").send("Too many pictures are being made just now.");
        return;
      }
      if (error instanceof PictureStoreUnavailableError) {
        req.log?.warn({ err: error, picture: req.params.hash }, "picture store did not answer");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Retry-After", String(error.retryAfterSeconds));
        res.status(503).type("text/plain").send("Pictures are unavailable just now.");
        return;
      }
      // The original is kept but no copy could be made (a picture that stopped the maker): the
      // page's picture shows its placeholder colour; the copy is tried again on the next request.
      req.log?.warn({ err: error, picture: req.params.hash }, "picture copy not made");
      res.setHeader("Cache-Control", "no-store");
      res.status(503).type("text/plain").send("The picture could not be made just now.");
      return;
    }
    if (!bytes) {
      res.status(404).type("text/plain").send("No such picture.");
      return;
    }
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type(want.type);
    // Express adds the ETag, answers a matching If-None-Match with 304 and HEAD without a body.
    res.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  return router;
}

/**
 * Finds a copy in the store, or makes it from the original. One copy is made at a time in a
 * process (each takes a core and tens of megabytes while it is made), and requests for a copy
 * being made wait for that one; past `maxWaiting` different copies waiting, another is refused
 * (TooManyCopiesError).
 */
function variantMaker(store: PictureStore, maker: PictureMaker, maxWaiting: number) {
  const making = new Map<string, Promise<Uint8Array | null>>();
  let queue: Promise<unknown> = Promise.resolve();

  async function make(hash: string, want: Wanted, file: string) {
    // The original is read when its turn comes, not while it waits: a cold page asks for dozens of
    // copies at once, and each waiting request holding its original added tens of megabytes.
    const turn = queue.then(async () => {
      const original = await store.getOriginal(hash);
      if (!original) return null;
      const bytes =
        want.kind === "crop"
          ? await maker.crop(original, { ...CROPS[want.crop], focus: want.focus })
          : await maker.variant(original, {
              width: want.width,
              format: want.format,
              shape: want.shape,
              focus: want.focus,
            });
      await store.putVariant(hash, file, bytes);
      return bytes;
    });
    queue = turn.catch(() => undefined);
    return turn;
  }

  return async (hash: string, want: Wanted, file: string) => {
    const kept = await store.getVariant(hash, file);
    if (kept) return kept;
    const key = `${hash}/${file}`;
    let pending = making.get(key);
    if (!pending) {
      if (making.size >= maxWaiting) throw new TooManyCopiesError();
      pending = make(hash, want, file).finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  };
}
