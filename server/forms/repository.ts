import { and, count, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { contactMessages, newsletterSubscribers, pollVotes } from "../db/schema";

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Stores the address once; subscribing again is not an error. */
export async function addSubscriber(db: Database, email: string): Promise<{ created: boolean }> {
  const rows = await db
    .insert(newsletterSubscribers)
    .values({ email: normaliseEmail(email) })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning({ id: newsletterSubscribers.id });
  return { created: rows.length > 0 };
}

export async function listSubscribers(db: Database) {
  return db
    .select({ email: newsletterSubscribers.email, createdAt: newsletterSubscribers.createdAt })
    .from(newsletterSubscribers)
    .orderBy(newsletterSubscribers.createdAt, newsletterSubscribers.id);
}

/** One vote per voter and poll; a second vote changes nothing. */
export async function recordVote(
  db: Database,
  vote: { pollId: string; option: string; voterId: string; addressKey?: string | null },
): Promise<{ counted: boolean }> {
  // Address keys only matter on their own day (voterAddressKey): older ones are forgotten.
  await db
    .update(pollVotes)
    .set({ addressKey: null })
    .where(
      and(isNotNull(pollVotes.addressKey), lt(pollVotes.createdAt, sql`now() - interval '2 days'`)),
    );
  // A vote from a browser or an address already counted conflicts with one of the unique indexes.
  const rows = await db
    .insert(pollVotes)
    .values(vote)
    .onConflictDoNothing()
    .returning({ id: pollVotes.id });
  return { counted: rows.length > 0 };
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
  const [messages, [others]] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .where(options.spam ? suspected : isNull(contactMessages.spamReason))
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(options.limit),
    db
      .select({ n: count() })
      .from(contactMessages)
      .where(options.spam ? isNull(contactMessages.spamReason) : suspected),
  ]);
  return { messages, others: Number(others?.n ?? 0) };
}
