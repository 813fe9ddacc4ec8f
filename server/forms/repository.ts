import { and, count, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client";
import { contactMessages, pollVotes } from "../db/schema";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether a vote was counted, or why not. */
export type VoteOutcome = "counted" | "already" | "ceiling";

/**
 * One vote per voter and poll; a second vote changes nothing ("already"). A vote whose network
 * (`addressKey`, server/forms/poll.ts) has `ceiling` votes in the poll today is not counted either
 * ("ceiling"). One statement counts and adds, so nothing waits on a lock; votes from one network at
 * the very same moment may pass the ceiling by a few, which a ceiling of hundreds allows.
 */
export async function recordVote(
  db: Database,
  vote: { pollId: string; option: string; voterId: string; addressKey?: string | null },
  ceiling = Number.POSITIVE_INFINITY,
): Promise<{ counted: boolean; outcome: VoteOutcome }> {
  // Address keys only matter on their own day (voterAddressKey): older ones are forgotten.
  await db
    .update(pollVotes)
    .set({ addressKey: null })
    .where(
      and(isNotNull(pollVotes.addressKey), lt(pollVotes.createdAt, sql`now() - interval '2 days'`)),
    );
  const { addressKey = null } = vote;
  const limited = addressKey !== null && Number.isFinite(ceiling);
  // A vote from a browser already counted conflicts with the unique index.
  const inserted = await db.execute(sql`
    insert into ${pollVotes} (poll_id, option, voter_id, address_key)
    select ${vote.pollId}, ${vote.option}, ${vote.voterId}, ${addressKey}
    where ${!limited} or (
      select count(*) from ${pollVotes}
      where poll_id = ${vote.pollId} and address_key = ${addressKey}
    ) < ${limited ? ceiling : 0}
    on conflict do nothing
    returning id`);
  if (rowsOf(inserted).length > 0) return { counted: true, outcome: "counted" };
  const already = await hasVoted(db, vote.pollId, vote.voterId);
  return { counted: false, outcome: already ? "already" : "ceiling" };
}

export async function pollResults(db: Database, pollId: string) {
  return db
    .select({ option: pollVotes.option, votes: count() })
    .from(pollVotes)
    .where(eq(pollVotes.pollId, pollId))
    .groupBy(pollVotes.option);
}

export async function hasVoted(db: Database, pollId: string, voterId: string): Promise<boolean> {
  const rows = await db
    .select({ id: pollVotes.id })
    .from(pollVotes)
    .where(and(eq(pollVotes.pollId, pollId), eq(pollVotes.voterId, voterId)))
    .limit(1);
  return rows.length > 0;
}

export async function saveContactMessage(
  db: Database,
  message: {
    name: string;
    email: string;
    category: string | null;
    message: string;
    spamReason?: string | null;
  },
): Promise<{ id: number }> {
  const [row] = await db
    .insert(contactMessages)
    .values({ ...message, email: normaliseEmail(message.email) })
    .returning({ id: contactMessages.id });
  if (!row) throw new Error("The contact message was not stored");
  return row;
}

/**
 * The newest contact messages, readers' or suspected spam (`spam`), and how many of the other kind
 * there are: the two are read apart.
 */
export async function listContactMessages(db: Database, options: { spam: boolean; limit: number }) {
  const suspected = isNotNull(contactMessages.spamReason);
  const [messages, others] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(options.spam ? suspected : isNull(contactMessages.spamReason))
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(options.limit),
    db.$count(contactMessages, options.spam ? isNull(contactMessages.spamReason) : suspected),
  ]);
  return { messages, others };
}
