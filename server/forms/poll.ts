import { createHmac } from "node:crypto";
import { z } from "zod";
import type { Poll } from "../content/load";
import type { Database } from "../db/client";
import { hasVoted, pollResults, recordVote } from "./repository";

/**
 * The Community page's reader poll: one vote per browser, told apart by a random id in an
 * HttpOnly cookie (never the reader's address), and results with counts and percentages.
 */

export const VOTE_THANKS = "Thanks for voting! Here are the results so far.";
export const ALREADY_VOTED = "You have already voted in this poll.";
export const invalidOption = (poll: Poll) =>
  `Please choose one of the options: ${poll.options.join(", ")}.`;

export interface PollTally {
  option: string;
  votes: number;
  /** Whole percent of all votes; 0 when nobody has voted. */
  percent: number;
}

export interface PollResults {
  total: number;
  tallies: PollTally[];
}

/** What the page shows: the form (perhaps with an error) or the results with a message. */
export type PollView =
  { status: "open"; error?: string } | { status: "results"; message: string; results: PollResults };

/**
 * The vote a posted form carries: every `option` field in it, so a post with two (no browser sends
 * that: the options are radio buttons) is refused rather than counted as its last one.
 */
export function postedVote(form: FormData): { option: unknown } {
  const options = form.getAll("option");
  return { option: options.length === 1 ? options[0] : options };
}

/** Counts per option in the poll's own order, options nobody chose included. */
export function tally(
  options: readonly string[],
  rows: readonly { option: string; votes: number }[],
): PollResults {
  const counts = new Map(rows.map((r) => [r.option, Number(r.votes)]));
  const votes = options.map((option) => counts.get(option) ?? 0);
  const total = votes.reduce((sum, n) => sum + n, 0);
  return {
    total,
    tallies: options.map((option, i) => {
      const n = votes[i] ?? 0;
      return { option, votes: n, percent: total === 0 ? 0 : Math.round((n / total) * 100) };
    }),
  };
}

export async function currentResults(db: Database, poll: Poll): Promise<PollResults> {
  return tally(poll.options, await pollResults(db, poll.id));
}

/**
 * Validates a posted vote and stores it once per voter. An invalid option stores nothing; a second
 * vote from the same voter changes nothing and says so.
 */
/**
 * A voter's address and the day, for one poll, as a keyed hash: at most one vote per address per
 * poll per day is counted, besides one per browser (its cookie), so a script that drops the cookie
 * gets one vote a day rather than one per request. The address itself is never stored, and the
 * key is cleared once its day is over (recordVote).
 */
export function voterAddressKey(
  secret: Buffer,
  pollId: string,
  address: string,
  now = new Date(),
): string {
  const day = now.toISOString().slice(0, 10);
  return createHmac("sha256", secret).update(`${pollId}\n${address}\n${day}`).digest("base64url");
}

export async function castVote(
  db: Database,
  poll: Poll,
  voterId: string,
  form: Record<string, unknown>,
  addressKey: string | null = null,
): Promise<{ ok: false; view: PollView } | { ok: true; counted: boolean; view: PollView }> {
  const parsed = z
    .object({ option: z.enum(poll.options as [string, ...string[]]) })
    .safeParse(form);
  if (!parsed.success) {
    return { ok: false, view: { status: "open", error: invalidOption(poll) } };
  }
  const { counted } = await recordVote(db, {
    pollId: poll.id,
    option: parsed.data.option,
    voterId,
    addressKey,
  });
  return {
    ok: true,
    counted,
    view: {
      status: "results",
      message: counted ? VOTE_THANKS : ALREADY_VOTED,
      results: await currentResults(db, poll),
    },
  };
}

/**
 * The poll as a voter sees it on arrival: results once they have voted (thanked when they arrive
 * straight from voting), the form before.
 */
export async function pollViewFor(
  db: Database,
  poll: Poll,
  voterId: string | null,
  justVoted = false,
): Promise<PollView> {
  if (!voterId || !(await hasVoted(db, poll.id, voterId))) return { status: "open" };
  return {
    status: "results",
    message: justVoted ? VOTE_THANKS : ALREADY_VOTED,
    results: await currentResults(db, poll),
  };
}

const VOTER_COOKIE = "poll_voter";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;
const voterId = z.uuid();

/** The voter id from the request's cookies, or null when absent or not one of ours. */
export function readVoterId(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === VOTER_COOKIE) {
      const parsed = voterId.safeParse(rest.join("="));
      return parsed.success ? parsed.data : null;
    }
  }
  return null;
}

/** Set-Cookie for a voter id: script cannot read it, and other sites' forms do not send it. */
export function voterCookie(id: string, options: { secure: boolean }): string {
  const attributes = [
    `${VOTER_COOKIE}=${id}`,
    "Path=/",
    `Max-Age=${ONE_YEAR_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (options.secure) attributes.push("Secure");
  return attributes.join("; ");
}
