import { asc, eq, gt, lte } from "drizzle-orm";
import { HOME_KEY } from "../../shared/cache-keys";
import { MAX_PINS } from "../../shared/newsroom";
import type { Database } from "../db/client";
import { articles, storyPins } from "../db/schema";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { NO_STORY, storyRow } from "./stories";

/**
 * Pins (issue #22): staff put up to MAX_PINS stories first on the home page, in their order, each
 * until its expiry. Audited and announced as the other story actions are (stories.ts).
 */

/** The longest a pin may last. */
const MAX_PIN_DAYS = 30;

/** Active pins, in order. */
async function activePins(db: Database, now: Date) {
  return db
    .select({ articleId: storyPins.articleId, expiresAt: storyPins.expiresAt })
    .from(storyPins)
    .where(gt(storyPins.expiresAt, now))
    .orderBy(asc(storyPins.position), asc(storyPins.articleId));
}

/** Numbers the pins 1, 2, … in the order given. */
async function renumber(db: Database, ids: string[]) {
  for (const [index, articleId] of ids.entries()) {
    await db
      .update(storyPins)
      .set({ position: index + 1 })
      .where(eq(storyPins.articleId, articleId));
  }
}

export function pin(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  expiresAt: Date,
  now = new Date(),
): Promise<ActionResult> {
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime()) {
    return Promise.resolve(fail("Give an expiry in the future."));
  }
  if (expiresAt.getTime() > now.getTime() + MAX_PIN_DAYS * 86_400_000) {
    return Promise.resolve(fail(`A pin lasts at most ${MAX_PIN_DAYS} days.`));
  }
  return act(services, async (tx) => {
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    if (story.takenDownAt) return fail("A story that is down cannot be pinned.");
    // Pins past their expiry are gone for good.
    await tx.delete(storyPins).where(lte(storyPins.expiresAt, now));
    const pins = await activePins(tx, now);
    const existing = pins.find((p) => p.articleId === id);
    if (!existing && pins.length >= MAX_PINS) {
      return fail(`At most ${MAX_PINS} stories can be pinned: unpin one first.`);
    }
    if (existing) {
      await tx.update(storyPins).set({ expiresAt }).where(eq(storyPins.articleId, id));
    } else {
      await tx.insert(storyPins).values({ articleId: id, position: pins.length + 1, expiresAt });
    }
    const message = existing ? "The pin's expiry is changed." : "The story is pinned.";
    return audited(tx, actor, message, [HOME_KEY], {
      action: "story.pin",
      subject: id,
      before: existing ? { pinned: true, expires: existing.expiresAt.toISOString() } : null,
      after: { pinned: true, expires: expiresAt.toISOString() },
    });
  });
}

export function unpin(services: NewsroomServices, actor: Actor, id: string, now = new Date()) {
  return act(services, async (tx) => {
    const pins = await activePins(tx, now);
    const existing = pins.find((p) => p.articleId === id);
    if (!existing) return fail("The story is not pinned.");
    await tx.delete(storyPins).where(eq(storyPins.articleId, id));
    await renumber(
      tx,
      pins.filter((p) => p.articleId !== id).map((p) => p.articleId),
    );
    return audited(tx, actor, "The story is unpinned.", [HOME_KEY], {
      action: "story.unpin",
      subject: id,
      before: { pinned: true, expires: existing.expiresAt.toISOString() },
      after: null,
    });
  });
}

/** Moves a pinned story one place up (earlier) or down. */
export function movePin(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  direction: "up" | "down",
  now = new Date(),
) {
  return act(services, async (tx) => {
    const order = (await activePins(tx, now)).map((p) => p.articleId);
    const from = order.indexOf(id);
    if (from === -1) return fail("The story is not pinned.");
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= order.length) return fail("The story cannot move further.");
    const next = [...order];
    [next[from], next[to]] = [order[to] ?? id, id];
    await renumber(tx, next);
    return audited(tx, actor, "The pins are reordered.", [HOME_KEY], {
      action: "story.pin-order",
      subject: id,
      before: { order },
      after: { order: next },
    });
  });
}

export interface PinnedStory {
  id: string;
  title: string;
  expiresAt: string;
  down: boolean;
}

export async function listPins(db: Database, now = new Date()): Promise<PinnedStory[]> {
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      expiresAt: storyPins.expiresAt,
      takenDownAt: articles.takenDownAt,
    })
    .from(storyPins)
    .innerJoin(articles, eq(articles.id, storyPins.articleId))
    .where(gt(storyPins.expiresAt, now))
    .orderBy(asc(storyPins.position), asc(storyPins.articleId));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    expiresAt: r.expiresAt.toISOString(),
    down: r.takenDownAt !== null,
  }));
}
