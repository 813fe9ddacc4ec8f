import { and, eq } from "drizzle-orm";
import { storyChangeKeys } from "../../shared/cache-keys";
import type { BlockField } from "../../shared/newsroom";
import { articles, blockRules, feeds } from "../db/schema";
import { leaveGroups, lockGroups } from "../grouping/store";
import { LIVE } from "../news/repository";
import { act, audited, fail, type ActionResult, type Actor, type NewsroomServices } from "./action";
import { blockingRule, blockRuleById, describeRule, parsePattern } from "./block-rules";

/**
 * What staff do with block rules (issue #22): add and remove them (the next ingest keeps matching
 * items out, block-rules.ts), and apply one to the stories already on the site. Audited and
 * announced as the other story actions are (stories.ts).
 */

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
    const message = "The rule is added: the next ingest keeps matching items out.";
    return audited(tx, actor, message, null, {
      action: "rule.add",
      subject: `rule ${added?.id}`,
      before: null,
      after: rule,
    });
  });
}

export function removeBlockRule(services: NewsroomServices, actor: Actor, ruleId: number) {
  return act(services, async (tx) => {
    const rule = await blockRuleById(tx, ruleId);
    if (!rule) return fail("There is no such rule.");
    await tx.delete(blockRules).where(eq(blockRules.id, ruleId));
    return audited(tx, actor, "The rule is removed.", null, {
      action: "rule.remove",
      subject: `rule ${ruleId}`,
      before: { feedId: rule.feedId, field: rule.field, pattern: rule.pattern },
      after: null,
    });
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
    await lockGroups(tx);
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
    const message = `${ids.length} ${ids.length === 1 ? "story is" : "stories are"} down.`;
    const purge = storyChangeKeys([...matched, ...regrouped]);
    return audited(tx, actor, message, purge, {
      action: "rule.apply",
      subject: `rule ${rule.id}`,
      before: { down: [] },
      after: { down: ids, reason },
    });
  });
}
