import { eq } from "drizzle-orm";
import { POST_LIMITS } from "../../shared/post-fields";
import { newsroomMedia } from "../db/schema";
import { acceptUpload } from "../images/upload";
import type { PictureMaker } from "../images/picture-maker";
import type { PictureStore } from "../images/store";
import { recordAudit } from "../staff/audit";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { tidy } from "./text";

/**
 * The newsroom's media library (decision 028): pictures uploaded from a writer's device go through
 * the feed pictures' checks and into the same store (server/images/upload.ts), and are listed here
 * with their alt text, credit and focal point, to be used again.
 */

export type UploadOutcome = { ok: true; mediaId: number } | { ok: false; error: string };

/** The longest file name kept. */
const MAX_FILENAME = 200;

/** A file posted from the editor or the library: checked, cleaned, kept and listed. */
export async function uploadPicture(
  services: NewsroomServices & {
    pictures: PictureStore;
    /** The web process's child process (decision 022): the upload is decoded there. */
    pictureMaker: PictureMaker;
    uploadMaxBytes: number;
  },
  actor: Actor,
  file: File,
  words: { alt: string; credit: string },
): Promise<UploadOutcome> {
  const accepted = await acceptUpload(new Uint8Array(await file.arrayBuffer()), services.pictures, {
    maxBytes: services.uploadMaxBytes,
    maker: services.pictureMaker,
  });
  if (!accepted.ok) return accepted;
  const alt = tidy(words.alt).slice(0, POST_LIMITS.pictureAlt);
  const credit = tidy(words.credit).slice(0, POST_LIMITS.pictureCredit);
  const mediaId = await services.db.transaction(async (tx) => {
    const [added] = await tx
      .insert(newsroomMedia)
      .values({
        hash: accepted.hash,
        width: accepted.width,
        height: accepted.height,
        color: accepted.color,
        bytes: accepted.bytes,
        alt,
        credit,
        filename: tidy(file.name).slice(0, MAX_FILENAME),
        uploadedBy: actor.email,
      })
      .onConflictDoNothing({ target: newsroomMedia.hash })
      .returning({ id: newsroomMedia.id });
    if (added) {
      await recordAudit(tx, actor, {
        action: "media.upload",
        subject: `media:${added.id}`,
        after: { filename: file.name.slice(0, MAX_FILENAME), bytes: accepted.bytes },
      });
      return added.id;
    }
    // The same picture again: the library's entry is used, with its words and focal point.
    const [existing] = await tx
      .select({ id: newsroomMedia.id })
      .from(newsroomMedia)
      .where(eq(newsroomMedia.hash, accepted.hash));
    if (!existing) throw new Error("An uploaded picture is neither new nor listed.");
    return existing.id;
  });
  return { ok: true, mediaId };
}

/** Sets the point every crop of the picture keeps in frame, in percent of its width and height. */
export function setFocus(
  services: NewsroomServices,
  actor: Actor,
  mediaId: number,
  focus: { x: number; y: number },
): Promise<ActionResult> {
  const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n)));
  if (!Number.isFinite(focus.x) || !Number.isFinite(focus.y)) {
    return Promise.resolve(fail("Select a point on the picture."));
  }
  const x = clamp(focus.x);
  const y = clamp(focus.y);
  return act(services, async (tx) => {
    const [before] = await tx.select().from(newsroomMedia).where(eq(newsroomMedia.id, mediaId));
    if (!before) return fail("That picture is not in the library.");
    await tx
      .update(newsroomMedia)
      .set({ focusX: x, focusY: y })
      .where(eq(newsroomMedia.id, mediaId));
    return audited(tx, actor, "The focal point is set: every crop keeps it in frame.", null, {
      action: "media.focus",
      subject: `media:${mediaId}`,
      before: { x: before.focusX, y: before.focusY },
      after: { x, y },
    });
  });
}

/** Changes a library picture's alt text and credit (posts keep the words they were given). */
export function setMediaWords(
  services: NewsroomServices,
  actor: Actor,
  mediaId: number,
  words: { alt: string; credit: string },
): Promise<ActionResult> {
  const alt = tidy(words.alt);
  const credit = tidy(words.credit);
  if (alt.length > POST_LIMITS.pictureAlt) {
    return Promise.resolve(fail(`Keep the alt text under ${POST_LIMITS.pictureAlt} characters.`));
  }
  if (credit.length > POST_LIMITS.pictureCredit) {
    return Promise.resolve(fail(`Keep the credit under ${POST_LIMITS.pictureCredit} characters.`));
  }
  return act(services, async (tx) => {
    const [before] = await tx.select().from(newsroomMedia).where(eq(newsroomMedia.id, mediaId));
    if (!before) return fail("That picture is not in the library.");
    await tx.update(newsroomMedia).set({ alt, credit }).where(eq(newsroomMedia.id, mediaId));
    return audited(tx, actor, "Saved.", null, {
      action: "media.words",
      subject: `media:${mediaId}`,
      before: { alt: before.alt, credit: before.credit },
      after: { alt, credit },
    });
  });
}

/** The focal point of a click on a picture drawn `shownWidth` CSS pixels wide, in percent. */
export function focusFromClick(
  click: { x: number; y: number },
  picture: { width: number; height: number },
  shownWidth: number,
): { x: number; y: number } {
  const shownHeight = (shownWidth * picture.height) / picture.width;
  return { x: (click.x / shownWidth) * 100, y: (click.y / shownHeight) * 100 };
}
