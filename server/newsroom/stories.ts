import { and, asc, eq, gt, isNotNull, lte } from "drizzle-orm";
import { asArticlePicture, type ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import { articles, blockRules, feeds, pictures, storyPins } from "../db/schema";
import { LIVE } from "../news/repository";
import {
  MAX_HEADLINE_LENGTH,
  MAX_PINS,
  MAX_REASON_LENGTH,
  type BlockField,
} from "../../shared/newsroom";
import { HOME_KEY, storyChangeKeys } from "../../shared/cache-keys";
import { recordAudit } from "../staff/audit";
import { leaveGroups } from "../grouping/store";
import { act, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { blockingRule, blockRuleById, describeRule, parsePattern } from "./block-rules";
import { UNPUBLISHED_REASON } from "./posts";
import { hasControl, tidy } from "./text";

/**
 * What editors do to stories (issue #22): take down and restore, override the headline or the
 * picture, pin, and block rules (corrections are in corrections.ts, what the screens read in
 * story-reads.ts). Each action checks its input, changes the database and writes the audit log in
 * one transaction, then announces the change so every process's page and read caches drop at once.
 */

/** The longest a pin may last. */
export const MAX_PIN_DAYS = 30;

async function storyRow(db: Database, id: string) {
  if (hasControl(id)) return undefined;
  const [row] = await db.select().from(articles).where(eq(articles.id, id)).limit(1);
  return row;
}

const NO_STORY = "There is no story with that id.";
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
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    if (story.takenDownAt) return fail("The story is already down.");
    await tx
      .update(articles)
      .set({ takenDownAt: now, takedownReason: reason })
      .where(eq(articles.id, id));
    // A version taken down leaves its story group, whose other versions then show without it.
    const regrouped = await leaveGroups(tx, [id]);
    await recordAudit(tx, actor, {
      action: "story.take-down",
      subject: id,
      before: { down: false },
      after: { down: true, reason },
    });
    return {
      ok: true,
      message: "The story is down.",
      purge: storyChangeKeys([story, ...regrouped]),
    };
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
    await recordAudit(tx, actor, {
      action: "story.restore",
      subject: id,
      before: { down: true, reason: story.takedownReason },
      after: { down: false },
    });
    return {
      ok: true,
      message: "The story is back on the site.",
      purge: storyChangeKeys([story]),
    };
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
    await recordAudit(tx, actor, {
      action: "story.headline",
      subject: id,
      before: { headline: story.title, feedHeadline: feedTitle },
      after: { headline: override ?? feedTitle, feedHeadline: feedTitle },
    });
    return {
      ok: true,
      message: override === null ? "The feed's headline is back." : "The headline is changed.",
      purge: storyChangeKeys([story]),
    };
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
    await recordAudit(tx, actor, {
      action: "story.picture",
      subject: id,
      before: { picture: story.defaultPicture ? "default" : "feed" },
      after: { picture: choice },
    });
    return {
      ok: true,
      message: useDefault ? "The story shows the default picture." : "The feed's picture is back.",
      purge: storyChangeKeys([story]),
    };
  });
}

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
    await recordAudit(tx, actor, {
      action: "story.pin",
      subject: id,
      before: existing ? { pinned: true, expires: existing.expiresAt.toISOString() } : null,
      after: { pinned: true, expires: expiresAt.toISOString() },
    });
    return {
      ok: true,
      message: existing ? "The pin's expiry is changed." : "The story is pinned.",
      purge: [HOME_KEY],
    };
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
    await recordAudit(tx, actor, {
      action: "story.unpin",
      subject: id,
      before: { pinned: true, expires: existing.expiresAt.toISOString() },
      after: null,
    });
    return { ok: true, message: "The story is unpinned.", purge: [HOME_KEY] };
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
    await recordAudit(tx, actor, {
      action: "story.pin-order",
      subject: id,
      before: { order },
      after: { order: next },
    });
    return { ok: true, message: "The pins are reordered.", purge: [HOME_KEY] };
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

// Block rules.

export function addBlockRule(
  services: NewsroomServices,
  actor: Actor,
  input: { feedId: number | null; field: BlockField; pattern: string },
): Promise<ActionResult> {
  const parsed = parsePattern(input.pattern);
  if ("error" in parsed) return Promise.resolve(fail(parsed.error));
  return act(services, async (tx) => {
    if (input.feedId !== null) {
      const [feed] = await tx
        .select({ id: feeds.id })
        .from(feeds)
        .where(eq(feeds.id, input.feedId));
      if (!feed) return fail("There is no such feed.");
    }
    const [added] = await tx
      .insert(blockRules)
      .values({ feedId: input.feedId, field: input.field, pattern: parsed.pattern })
      .returning({ id: blockRules.id });
    const rule = { feedId: input.feedId, field: input.field, pattern: parsed.pattern };
    await recordAudit(tx, actor, {
      action: "rule.add",
      subject: `rule ${added?.id}`,
      before: null,
      after: rule,
    });
    return {
      ok: true,
      message: "The rule is added: the next ingest keeps matching items out.",
    };
  });
}

export function removeBlockRule(services: NewsroomServices, actor: Actor, ruleId: number) {
  return act(services, async (tx) => {
    const rule = await blockRuleById(tx, ruleId);
    if (!rule) return fail("There is no such rule.");
    await tx.delete(blockRules).where(eq(blockRules.id, ruleId));
    await recordAudit(tx, actor, {
      action: "rule.remove",
      subject: `rule ${ruleId}`,
      before: { feedId: rule.feedId, field: rule.field, pattern: rule.pattern },
      after: null,
    });
    return { ok: true, message: "The rule is removed." };
  });
}

/** Takes down every stored story on the site that the rule matches, with the rule as reason. */
export function applyBlockRule(
  services: NewsroomServices,
  actor: Actor,
  ruleId: number,
  now = new Date(),
) {
  return act(services, async (tx) => {
    const rule = await blockRuleById(tx, ruleId);
    if (!rule) return fail("There is no such rule.");
    const candidates = await tx
      .select({
        id: articles.id,
        category: articles.category,
        feedId: articles.feedId,
        title: articles.title,
        feedTitle: articles.feedTitle,
        author: articles.author,
        link: articles.link,
      })
      .from(articles)
      .where(
        and(
          LIVE,
          // A rule is about what feeds send: the newsroom's own stories are never its to take down.
          eq(articles.own, false),
          rule.feedId === null ? undefined : eq(articles.feedId, rule.feedId),
        ),
      );
    // A headline staff wrote is theirs: the rule looks at the feed's.
    const matched = candidates.filter((story) =>
      blockingRule([rule], story.feedId, { ...story, title: story.feedTitle ?? story.title }),
    );
    if (matched.length === 0) return fail("No story on the site matches the rule.");
    const reason = describeRule(rule);
    const ids = matched.map((s) => s.id);
    for (const id of ids) {
      await tx
        .update(articles)
        .set({ takenDownAt: now, takedownReason: reason })
        .where(eq(articles.id, id));
    }
    const regrouped = await leaveGroups(tx, ids);
    await recordAudit(tx, actor, {
      action: "rule.apply",
      subject: `rule ${rule.id}`,
      before: { down: [] },
      after: { down: ids, reason },
    });
    return {
      ok: true,
      message: `${ids.length} ${ids.length === 1 ? "story is" : "stories are"} down.`,
      purge: storyChangeKeys([...matched, ...regrouped]),
    };
  });
}
