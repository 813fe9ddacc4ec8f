import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { readCorrectionsOf, type Correction } from "../news/repository";
import { corrections, staffAudit } from "../db/schema";
import { MAX_CORRECTION_LENGTH } from "../../shared/newsroom";
import { articleKey, CORRECTIONS_KEY, field } from "../../shared/cache-keys";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { NO_STORY, storyRow } from "./stories";
import { hasControl, tidy } from "./text";

/**
 * Corrections staff publish on a story (decision 025), and edit or retract. Public pages read the
 * `corrections` table as it is (server/news/repository.ts), so a retracted correction is removed
 * from it: it leaves the story, /corrections and the corrections feed at once, and its text stays
 * in the audit entry that retracted it, which the story's newsroom page lists.
 */

const AUDIT_ACTIONS = {
  add: "story.correct",
  edit: "story.correction-edit",
  retract: "story.correction-retract",
} as const;

const NO_CORRECTION = "There is no such correction on this story: it may have been retracted.";

function checkedText(input: string): { text: string } | { error: string } {
  const text = tidy(input);
  if (text.length < 10) return { error: "Write the correction (10 characters or more)." };
  if (text.length > MAX_CORRECTION_LENGTH) {
    return { error: `Keep the correction under ${MAX_CORRECTION_LENGTH} characters.` };
  }
  return { text };
}

/** A correction shows on its story and on /corrections and its feed. */
const correctionKeys = (storyId: string) => [articleKey(storyId), CORRECTIONS_KEY];

async function correctionOf(db: Database, storyId: string, correctionId: number) {
  if (!Number.isSafeInteger(correctionId) || correctionId < 1 || hasControl(storyId)) {
    return undefined;
  }
  const [row] = await db
    .select()
    .from(corrections)
    .where(and(eq(corrections.id, correctionId), eq(corrections.articleId, storyId)));
  return row;
}

/** Publishes a correction dated `now`, shown above the story and at /corrections. */
export function addCorrection(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  textInput: string,
  now = new Date(),
): Promise<ActionResult> {
  const checked = checkedText(textInput);
  if ("error" in checked) return Promise.resolve(fail(checked.error));
  const { text } = checked;
  return act(services, async (tx) => {
    if (!(await storyRow(tx, id))) return fail(NO_STORY);
    const [added] = await tx
      .insert(corrections)
      .values({ articleId: id, text, publishedAt: now })
      .returning({ id: corrections.id });
    return audited(tx, actor, "The correction is published.", correctionKeys(id), {
      action: AUDIT_ACTIONS.add,
      subject: id,
      before: null,
      after: { correction: added?.id, text, date: now.toISOString() },
    });
  });
}

/** Rewords a correction; it keeps its date (the day the story was corrected). */
export function editCorrection(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  correctionId: number,
  textInput: string,
): Promise<ActionResult> {
  const checked = checkedText(textInput);
  if ("error" in checked) return Promise.resolve(fail(checked.error));
  const { text } = checked;
  return act(services, async (tx) => {
    const correction = await correctionOf(tx, id, correctionId);
    if (!correction) return fail(NO_CORRECTION);
    if (correction.text === text) return fail("That is what the correction says already.");
    await tx.update(corrections).set({ text }).where(eq(corrections.id, correction.id));
    return audited(tx, actor, "The correction is changed.", correctionKeys(id), {
      action: AUDIT_ACTIONS.edit,
      subject: id,
      before: { correction: correction.id, text: correction.text },
      after: { correction: correction.id, text },
    });
  });
}

/** Takes a correction off the story, /corrections and the corrections feed; the audit keeps it. */
export function retractCorrection(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  correctionId: number,
): Promise<ActionResult> {
  return act(services, async (tx) => {
    const correction = await correctionOf(tx, id, correctionId);
    if (!correction) return fail(NO_CORRECTION);
    await tx.delete(corrections).where(eq(corrections.id, correction.id));
    return audited(tx, actor, "The correction is retracted.", correctionKeys(id), {
      action: AUDIT_ACTIONS.retract,
      subject: id,
      before: {
        correction: correction.id,
        text: correction.text,
        date: correction.publishedAt.toISOString(),
      },
      after: null,
    });
  });
}

export type { Correction as StoryCorrection };

export interface RetractedCorrection {
  text: string;
  /** When it was published, and when and by whom it was retracted (ISO 8601, an e-mail). */
  date: string;
  retractedAt: string;
  retractedBy: string;
}

/** A story's corrections as staff see them: those shown, newest first, and those retracted. */
export async function storyCorrections(
  db: Database,
  id: string,
): Promise<{ shown: Correction[]; retracted: RetractedCorrection[] }> {
  const [shown, retractions] = await Promise.all([
    readCorrectionsOf(db, id),
    db
      .select()
      .from(staffAudit)
      .where(and(eq(staffAudit.subject, id), eq(staffAudit.action, AUDIT_ACTIONS.retract)))
      .orderBy(desc(staffAudit.createdAt), desc(staffAudit.id)),
  ]);
  return {
    shown,
    retracted: retractions.flatMap((entry) => {
      const [text, date] = [field(entry.before, "text"), field(entry.before, "date")];
      if (typeof text !== "string" || typeof date !== "string") return [];
      return [
        {
          text,
          date,
          retractedAt: entry.createdAt.toISOString(),
          retractedBy: entry.staffEmail,
        },
      ];
    }),
  };
}
