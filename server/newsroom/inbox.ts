import { count, desc, eq } from "drizzle-orm";
import type { Poll } from "../content/load";
import type { Database } from "../db/client";
import { contactMessages, pollVotes } from "../db/schema";
import { tally, type PollResults } from "../forms/poll";
import { INBOX_PAGE_SIZE } from "../../shared/newsroom";
import { audited, fail, type ActionResult, type Actor } from "./action";

/**
 * The newsroom's inbox (issue #22): readers' contact messages, newest first, which editors mark
 * handled or delete, and the poll's results. Each change runs in one transaction with its audit
 * row. None is announced: no public page shows a contact message, so no cache holds one.
 */

export type InboxMessage = typeof contactMessages.$inferSelect;

/** A page of messages, newest first (page 1 the newest), with how many pages there are. */
export async function inboxPage(
  db: Database,
  requested: number,
): Promise<{ messages: InboxMessage[]; page: number; pages: number; total: number }> {
  const total = await db.$count(contactMessages);
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  const page = Number.isInteger(requested) ? Math.min(Math.max(requested, 1), pages) : 1;
  const messages = await db
    .select()
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(INBOX_PAGE_SIZE)
    .offset((page - 1) * INBOX_PAGE_SIZE);
  return { messages, page, pages, total };
}

export async function inboxMessage(db: Database, id: number): Promise<InboxMessage | null> {
  if (!Number.isInteger(id) || id < 1) return null;
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  return row ?? null;
}

const NO_MESSAGE = "There is no message with that number: it may have been deleted.";

/** Marks a message handled (or open again), saying who and when. */
export function markHandled(
  db: Database,
  actor: Actor,
  id: number,
  handled: boolean,
  now = new Date(),
): Promise<ActionResult> {
  return db.transaction(async (tx) => {
    const message = await inboxMessage(tx, id);
    if (!message) return fail(NO_MESSAGE);
    if ((message.handledAt !== null) === handled) {
      return fail(handled ? "The message is handled already." : "The message is open already.");
    }
    await tx
      .update(contactMessages)
      .set(
        handled ? { handledAt: now, handledBy: actor.email } : { handledAt: null, handledBy: null },
      )
      .where(eq(contactMessages.id, id));
    const answer = handled ? "The message is marked handled." : "The message is open again.";
    return audited(tx, actor, answer, null, {
      action: handled ? "inbox.handled" : "inbox.unhandled",
      subject: `contact-message:${id}`,
      before: { handled: message.handledAt !== null, by: message.handledBy },
      after: { handled, by: handled ? actor.email : null },
    });
  });
}

/**
 * Deletes a message for good. The audit row says which message (its number, when it came, its
 * category and state) and who deleted it, never the reader's name, address or words: deleting is
 * how a reader's request to be forgotten is met.
 */
export function deleteMessage(db: Database, actor: Actor, id: number): Promise<ActionResult> {
  return db.transaction(async (tx) => {
    const message = await inboxMessage(tx, id);
    if (!message) return fail(NO_MESSAGE);
    await tx.delete(contactMessages).where(eq(contactMessages.id, id));
    return audited(tx, actor, "The message is deleted.", null, {
      action: "inbox.delete",
      subject: `contact-message:${id}`,
      before: {
        received: message.createdAt.toISOString(),
        category: message.category,
        handled: message.handledAt !== null,
        automated: message.spamReason !== null,
      },
      after: null,
    });
  });
}

export interface PollSummary {
  pollId: string;
  /** The question as the public poll asks it; null for an earlier poll no longer in the content. */
  question: string | null;
  results: PollResults;
}

/**
 * Votes per poll and option, with totals and whole percentages: the current poll first, its
 * options named and ordered as the Community page shows them (unchosen ones at 0), then any
 * earlier poll whose votes are still stored, with the options its voters chose.
 */
export async function pollSummaries(db: Database, current: Poll): Promise<PollSummary[]> {
  const rows = await db
    .select({ pollId: pollVotes.pollId, option: pollVotes.option, votes: count() })
    .from(pollVotes)
    .groupBy(pollVotes.pollId, pollVotes.option)
    .orderBy(pollVotes.pollId, pollVotes.option);
  const byPoll = new Map<string, { option: string; votes: number }[]>();
  for (const row of rows) {
    const list = byPoll.get(row.pollId) ?? [];
    list.push({ option: row.option, votes: Number(row.votes) });
    byPoll.set(row.pollId, list);
  }
  const currentRows = byPoll.get(current.id) ?? [];
  // Votes for an option the content no longer offers still count, after the offered ones.
  const dropped = currentRows.map((r) => r.option).filter((o) => !current.options.includes(o));
  const summaries: PollSummary[] = [
    {
      pollId: current.id,
      question: current.question,
      results: tally([...current.options, ...dropped], currentRows),
    },
  ];
  for (const [pollId, list] of byPoll) {
    if (pollId === current.id) continue;
    const options = [...list].sort((a, b) => b.votes - a.votes).map((r) => r.option);
    summaries.push({ pollId, question: null, results: tally(options, list) });
  }
  return summaries;
}
