import { and, eq, isNotNull } from "drizzle-orm";
import { asArticlePicture, type ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import { articles, pictures } from "../db/schema";
import { MAX_HEADLINE_LENGTH, MAX_REASON_LENGTH } from "../../shared/newsroom";
import { storyChangeKeys } from "../../shared/cache-keys";
import { leaveGroups, lockGroups } from "../grouping/store";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { UNPUBLISHED_REASON } from "./post-live";
import { hasControl, tidy } from "./text";

/**
 * What editors do to stories (issue #22): take down and restore, override the headline or the
 * picture (pins are in pins.ts, block rules in block-rule-actions.ts, corrections in
 * corrections.ts, what the screens read in story-reads.ts). Each action checks its input, changes
 * the database and writes the audit log in one transaction, then announces the change so every
 * process's page and read caches drop at once.
 */

export async function storyRow(db: Database, id: string) {
  if (hasControl(id)) return undefined;
  const [row] = await db.select().from(articles).where(eq(articles.id, id)).limit(1);
  return row;
}

export const NO_STORY = "There is no story with that id.";
const OWN_STORY_EDITOR = "This is our own story: change it on its editor page.";

export function takeDown(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  reasonInput: string,
  now = new Date(),
): Promise<ActionResult> {
  const reason = tidy(reasonInput);
  if (reason.length < 3) return Promise.resolve(fail("Say why the story comes down."));
  if (reason.length > MAX_REASON_LENGTH) {
    return Promise.resolve(fail(`Keep the reason under ${MAX_REASON_LENGTH} characters.`));
  }
  return act(services, async (tx) => {
    await lockGroups(tx);
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    if (story.takenDownAt) return fail("The story is already down.");
    await tx
      .update(articles)
      .set({ takenDownAt: now, takedownReason: reason })
      .where(eq(articles.id, id));
    // A version taken down leaves its story group, whose other versions then show without it.
    const regrouped = await leaveGroups(tx, [id]);
    return audited(tx, actor, "The story is down.", storyChangeKeys([story, ...regrouped]), {
      action: "story.take-down",
      subject: id,
      before: { down: false },
      after: { down: true, reason },
    });
  });
}

export function restore(services: NewsroomServices, actor: Actor, id: string) {
  return act(services, async (tx) => {
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    if (!story.takenDownAt) return fail("The story is not down.");
    // Its writers took it off the site: back on, it would show a live copy they withdrew.
    if (story.own && story.takedownReason === UNPUBLISHED_REASON) {
      return fail("Publish it again from its editor page.");
    }
    await tx
      .update(articles)
      .set({ takenDownAt: null, takedownReason: null })
      .where(eq(articles.id, id));
    return audited(tx, actor, "The story is back on the site.", storyChangeKeys([story]), {
      action: "story.restore",
      subject: id,
      before: { down: true, reason: story.takedownReason },
      after: { down: false },
    });
  });
}

/** Sets staff's headline; an empty one gives the story the feed's headline back. */
export function setHeadline(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  headlineInput: string,
): Promise<ActionResult> {
  const headline = tidy(headlineInput);
  if (headline.length > MAX_HEADLINE_LENGTH) {
    return Promise.resolve(fail(`Keep the headline under ${MAX_HEADLINE_LENGTH} characters.`));
  }
  return act(services, async (tx) => {
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    // An own story's headline is its editor's: published again, it would undo an override here.
    if (story.own) return fail(OWN_STORY_EDITOR);
    const feedTitle = story.feedTitle ?? story.title;
    // The feed's own headline, typed again or left empty, ends the override.
    const override = headline === "" || headline === feedTitle ? null : headline;
    if ((story.feedTitle === null ? null : story.title) === override) {
      return fail("That is the headline already.");
    }
    await tx
      .update(articles)
      .set(
        override === null ? { title: feedTitle, feedTitle: null } : { title: override, feedTitle },
      )
      .where(eq(articles.id, id));
    const message = override === null ? "The feed's headline is back." : "The headline is changed.";
    return audited(tx, actor, message, storyChangeKeys([story]), {
      action: "story.headline",
      subject: id,
      before: { headline: story.title, feedHeadline: feedTitle },
      after: { headline: override ?? feedTitle, feedHeadline: feedTitle },
    });
  });
}

export type PictureChoice = "feed" | "default";

export function setPictureChoice(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  choice: PictureChoice,
): Promise<ActionResult> {
  return act(services, async (tx) => {
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    // An own story has no feed picture to go back to: its picture is chosen in its editor.
    if (story.own) return fail(OWN_STORY_EDITOR);
    const useDefault = choice === "default";
    if (story.defaultPicture === useDefault) return fail("The story shows that picture already.");
    let picture: ArticlePicture | null = null;
    if (!useDefault && story.image) {
      // The feed's picture as the picture pass kept it (none yet: the pass adds it).
      const [kept] = await tx
        .select({ picture: pictures.picture })
        .from(pictures)
        .where(and(eq(pictures.url, story.image), isNotNull(pictures.picture)))
        .limit(1);
      picture = asArticlePicture(kept?.picture);
    }
    await tx
      .update(articles)
      .set({ defaultPicture: useDefault, picture })
      .where(eq(articles.id, id));
    const message = useDefault
      ? "The story shows the default picture."
      : "The feed's picture is back.";
    return audited(tx, actor, message, storyChangeKeys([story]), {
      action: "story.picture",
      subject: id,
      before: { picture: story.defaultPicture ? "default" : "feed" },
      after: { picture: choice },
    });
  });
}
