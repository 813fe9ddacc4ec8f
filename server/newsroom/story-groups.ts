import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { storyChangeKeys } from "../../shared/cache-keys";
import type { CategoryKey } from "../../shared/categories";
import { sourceName } from "../../shared/source-name";
import type { Database } from "../db/client";
import { articles, storyGroupOverrides, storyGroups } from "../db/schema";
import { leaveGroups, lockGroups, settleGroups } from "../grouping/store";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { NO_STORY, storyRow } from "./stories";

/**
 * What staff do to story groups (issue #36, decision 032): split a version out of a wrong match,
 * join two stories (or their groups), and choose a group's lead. Each is recorded in the audit log
 * and kept in story_group_overrides, so no later ingest pass undoes it.
 */

/** A version of a story's group as the newsroom shows it. */
export interface GroupVersion {
  id: string;
  title: string;
  source: string;
  category: CategoryKey;
  date: string;
  lead: boolean;
}

/** The versions in `id`'s group, the lead first, then oldest first; empty when it stands alone. */
export async function groupVersions(db: Database, id: string): Promise<GroupVersion[]> {
  const [story] = await db
    .select({ group: articles.storyGroup })
    .from(articles)
    .where(eq(articles.id, id))
    .limit(1);
  if (!story?.group) return [];
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      link: articles.link,
      category: articles.category,
      at: articles.publishedAt,
      lead: articles.groupLead,
    })
    .from(articles)
    .where(and(eq(articles.storyGroup, story.group), isNull(articles.takenDownAt)))
    .orderBy(sql`${articles.groupLead} DESC`, asc(articles.publishedAt), asc(articles.id));
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    source: sourceName(row.link),
    category: row.category as CategoryKey,
    date: row.at.toISOString(),
    lead: row.lead,
  }));
}

const OWN_STORY = "Our own stories are never grouped with feeds' stories.";

async function decide(tx: Database, actor: Actor, ids: string[], decision: "alone" | "joined") {
  if (ids.length === 0) return;
  await tx
    .insert(storyGroupOverrides)
    .values(ids.map((articleId) => ({ articleId, decision, decidedBy: actor.email })))
    .onConflictDoUpdate({
      target: storyGroupOverrides.articleId,
      set: { decision, decidedBy: actor.email, decidedAt: sql`now()` },
    });
}

/** Takes a story out of its group: it stands alone from now on, whatever ingest matches. */
export function splitStory(
  services: NewsroomServices,
  actor: Actor,
  id: string,
): Promise<ActionResult> {
  return act(services, async (tx) => {
    await lockGroups(tx);
    const story = await storyRow(tx, id);
    if (!story) return fail(NO_STORY);
    if (!story.storyGroup) return fail("The story is not in a group.");
    const others = await tx
      .select({ id: articles.id })
      .from(articles)
      .where(and(eq(articles.storyGroup, story.storyGroup), ne(articles.id, id)));
    const changed = await leaveGroups(tx, [id]);
    await decide(tx, actor, [id], "alone");
    return audited(tx, actor, "The story stands alone now.", storyChangeKeys([story, ...changed]), {
      action: "story.group-split",
      subject: id,
      before: { group: story.storyGroup, with: others.map((o) => o.id) },
      after: { group: null },
    });
  });
}

/**
 * Puts a story, with the rest of its group if it has one, into the group of `otherId` (which begins
 * one when it stands alone). The lead stays the one the other group had.
 */
export function joinStories(
  services: NewsroomServices,
  actor: Actor,
  id: string,
  otherInput: string,
): Promise<ActionResult> {
  const otherId = storyIdFrom(otherInput);
  return act(services, async (tx) => {
    await lockGroups(tx);
    const story = await storyRow(tx, id);
    const other = otherId === null ? undefined : await storyRow(tx, otherId);
    if (!story || story.takenDownAt) return fail(NO_STORY);
    if (!other || other.takenDownAt)
      return fail("There is no story on the site with that id or address.");
    if (story.own || other.own) return fail(OWN_STORY);
    if (story.id === other.id) return fail("That is this story.");
    if (story.storyGroup !== null && story.storyGroup === other.storyGroup) {
      return fail("The two stories are already one group.");
    }
    let target = other.storyGroup;
    if (target === null) {
      target = randomUUID();
      await tx.insert(storyGroups).values({ id: target, leadId: other.id });
      await tx.update(articles).set({ storyGroup: target }).where(eq(articles.id, other.id));
    }
    const moving = story.storyGroup
      ? await tx
          .select({ id: articles.id })
          .from(articles)
          .where(eq(articles.storyGroup, story.storyGroup))
      : [{ id: story.id }];
    const movingIds = moving.map((m) => m.id);
    await tx.update(articles).set({ storyGroup: target }).where(inArray(articles.id, movingIds));
    await decide(tx, actor, [...movingIds, other.id], "joined");
    const changed = await settleGroups(tx, [
      target,
      ...(story.storyGroup ? [story.storyGroup] : []),
    ]);
    const purge = storyChangeKeys([story, other, ...changed]);
    return audited(tx, actor, "The stories are one group now.", purge, {
      action: "story.group-join",
      subject: id,
      before: { group: story.storyGroup, with: other.id, withTitle: other.title },
      after: { group: target, moved: movingIds },
    });
  });
}

/** Makes a story its group's lead: lists of every category show it for the group. */
export function chooseLead(
  services: NewsroomServices,
  actor: Actor,
  id: string,
): Promise<ActionResult> {
  return act(services, async (tx) => {
    await lockGroups(tx);
    const story = await storyRow(tx, id);
    if (!story || story.takenDownAt) return fail(NO_STORY);
    if (!story.storyGroup) return fail("The story is not in a group.");
    const [group] = await tx
      .select({ leadId: storyGroups.leadId })
      .from(storyGroups)
      .where(eq(storyGroups.id, story.storyGroup));
    if (group?.leadId === id) return fail("The story already leads its group.");
    await tx
      .update(storyGroups)
      .set({ leadId: id, leadByStaff: true })
      .where(eq(storyGroups.id, story.storyGroup));
    const changed = await settleGroups(tx, [story.storyGroup]);
    const purge = storyChangeKeys([story, ...changed]);
    return audited(tx, actor, "The story leads its group now.", purge, {
      action: "story.group-lead",
      subject: id,
      before: { lead: group?.leadId ?? null },
      after: { lead: id },
    });
  });
}

/** A story's id from what staff typed: the id itself, or the address of its page on the site. */
function storyIdFrom(input: string): string | null {
  const text = input.trim();
  if (text === "" || text.length > 300) return null;
  const path = /^https?:\/\//i.test(text) ? URL.parse(text)?.pathname : text;
  const match = /(?:^|\/article\/)([a-z0-9][a-z0-9-]*)\/?$/i.exec(path ?? "");
  return match?.[1] ?? null;
}
