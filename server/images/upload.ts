import { LOSSLESS_MAX_PIXELS, MAX_INPUT_PIXELS } from "./limits";
import type { Refusal } from "./picture";
import { inlinePictureMaker, type PictureMaker } from "./picture-maker";
import { PictureStoreUnavailableError, type PictureStore } from "./store";

/**
 * A picture staff upload in the newsroom (decision 022, "Uploads"): checked as a feed's picture
 * is (inspectPicture: its type read from its bytes, never from its name or Content-Type; the same
 * formats and pixel limits), then turned upright and stripped of all its metadata (cleanOriginal)
 * before it is kept. What is kept is that clean copy, marked so that neither the store's bound nor
 * the picture pass removes it; its hash is what the newsroom_media row names.
 */

/**
 * Taken: the kept copy's hash, its size as displayed, its placeholder colour and its length in
 * bytes (the clean copy's, not the upload's). Refused: a sentence for the editor.
 */
export type UploadResult =
  | { ok: true; hash: string; width: number; height: number; color: string; bytes: number }
  | { ok: false; error: string };

export interface UploadOptions {
  /** The largest upload taken, in bytes (UPLOAD_MAX_BYTES, `config.pictures.uploadMaxBytes`). */
  maxBytes: number;
  /**
   * Reads and cleans the picture: the web process passes its child process's (decision 022,
   * "A child process makes them"), as a picture of 40 megapixels takes hundreds of megabytes to
   * decode; sharp in this process when absent.
   */
  maker?: PictureMaker;
}

const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
const millions = (pixels: number) => `${Number((pixels / 1e6).toFixed(1))} million`;

const MESSAGES_STORE =
  "The picture could not be stored just now (the picture store did not answer): nothing was saved, try again in a minute.";

/** What an editor is told of each refusal. */
const MESSAGES: Record<Refusal, string> = {
  format: "This file is not a picture we can use (JPEG, PNG, WebP, AVIF or GIF).",
  pixels: `This picture has more than ${millions(MAX_INPUT_PIXELS)} pixels.`,
  "lossless-pixels": `This PNG or GIF has more than ${millions(LOSSLESS_MAX_PIXELS)} pixels: save it as a JPEG, or smaller.`,
  unreadable: "This picture could not be read: the file may be damaged or incomplete.",
};

export async function acceptUpload(
  bytes: Uint8Array,
  store: PictureStore,
  options: UploadOptions,
): Promise<UploadResult> {
  if (bytes.byteLength === 0) return { ok: false, error: "This file is empty." };
  if (bytes.byteLength > options.maxBytes) {
    return { ok: false, error: `This picture is larger than ${megabytes(options.maxBytes)}.` };
  }
  const maker = options.maker ?? inlinePictureMaker();
  const inspection = await maker.inspect(bytes);
  if (inspection.kind === "refused") return { ok: false, error: MESSAGES[inspection.problem] };
  let clean: Uint8Array;
  try {
    clean = await maker.clean(bytes);
  } catch {
    return { ok: false, error: MESSAGES.unreadable };
  }
  let hash: string;
  try {
    hash = await store.putOriginal(clean, { keep: true });
  } catch (error) {
    // Not kept: the editor is told, and nothing names the picture (the library lists it only on ok).
    if (error instanceof PictureStoreUnavailableError) return { ok: false, error: MESSAGES_STORE };
    throw error;
  }
  // The size as displayed is the clean copy's own (it is upright); the colour the pass's way.
  const { width, height, dominant } = inspection.picture;
  return { ok: true, hash, width, height, color: dominant, bytes: clean.byteLength };
}
