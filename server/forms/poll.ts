import { createHmac } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";
import { z } from "zod";
import type { Poll } from "../content/load";
import type { Database } from "../db/client";
import { clientNetwork } from "./guard";
import { hasVoted, pollResults, recordVote, type VoteOutcome } from "./repository";

/**
 * The Community page's reader poll: one vote per browser, told apart by a random id in an
 * HttpOnly cookie (never the reader's address), and results with counts and percentages. Many
 * readers share one address (a home, an office, thousands behind a phone network's NAT), so an
 * address is only given a ceiling for the day, which a script reaches and they do not (decision 021).
 */

export const VOTE_THANKS = "Thanks for voting! Here are the results so far.";
export const ALREADY_VOTED = "You have already voted in this poll.";
export const NETWORK_CEILING_REACHED =
  "We could not count your vote: an unusual number of votes came from your network today. Here are the results so far.";

/**
 * Votes counted from one network (an IPv4 address or an IPv6 /64) in one poll in one day, when
 * they come from the page's own form (its signed token): more than a busy office or a phone
 * network's shared address sends to one local poll.
 */
export const NETWORK_VOTES_PER_DAY = 300;
/** The same for votes without the page's form token: a script that never loads the page. */
export const UNSIGNED_NETWORK_VOTES_PER_DAY = 5;
export const invalidOption = (poll: Poll) =>
  `Please choose one of the options: ${poll.options.join(", ")}.`;

interface PollTally {
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
 * A voter's network (the address, or its IPv6 /64) and the day, for one poll, as a keyed hash: the
 * votes counted per key are held to a ceiling, besides one per browser (its cookie), so a script
 * that drops the cookie gets a few hundred votes a day at most rather than one per request. The
 * address itself is never stored, and the key is cleared once its day is over (recordVote).
 */
export function voterAddressKey(
  secret: Buffer,
  pollId: string,
  address: string,
  now = new Date(),
): string {
  const day = now.toISOString().slice(0, 10);
  return createHmac("sha256", secret)
    .update(`${pollId}\n${clientNetwork(address)}\n${day}`)
    .digest("base64url");
}

/** What a voter is told when their vote was not counted, or was. */
const OUTCOME_MESSAGES: Record<VoteOutcome, string> = {
  counted: VOTE_THANKS,
  already: ALREADY_VOTED,
  ceiling: NETWORK_CEILING_REACHED,
};

/**
 * Validates a posted vote and stores it once per voter, within its network's ceiling for the day
 * (`signed`: the vote came with the page's form token). An invalid option stores nothing; a vote
 * that is not counted says why, with the results.
 */
export async function castVote(
  db: Database,
  poll: Poll,
  voterId: string,
  form: Record<string, unknown>,
  addressKey: string | null = null,
  signed = true,
): Promise<
  | { ok: false; view: PollView }
  | { ok: true; counted: boolean; outcome: VoteOutcome; view: PollView }
> {
  const parsed = z
    .object({ option: z.enum(poll.options as [string, ...string[]]) })
    .safeParse(form);
  if (!parsed.success) {
    return { ok: false, view: { status: "open", error: invalidOption(poll) } };
  }
  const { counted, outcome } = await recordVote(
    db,
    { pollId: poll.id, option: parsed.data.option, voterId, addressKey },
    signed ? NETWORK_VOTES_PER_DAY : UNSIGNED_NETWORK_VOTES_PER_DAY,
  );
  return {
    ok: true,
    counted,
    outcome,
    view: {
      status: "results",
      message: OUTCOME_MESSAGES[outcome],
      results: await currentResults(db, poll),
    },
  };
}

/**
 * The poll as a voter sees it on arrival: results once they have voted, the form before. A reader
 * sent back from voting (`outcome`, from the address) is told what happened to their vote even
 * when the browser kept no cookie to find it by, and a vote not counted still shows the results.
 */
export async function pollViewFor(
  db: Database,
  poll: Poll,
  voterId: string | null,
  outcome: VoteOutcome | null = null,
): Promise<PollView> {
  const voted = voterId !== null && (await hasVoted(db, poll.id, voterId));
  if (!voted && outcome === null) return { status: "open" };
  return {
    status: "results",
    message: OUTCOME_MESSAGES[outcome ?? "already"],
    results: await currentResults(db, poll),
  };
}

/** The outcome a reader sent back from voting brings in the address (`?poll=`). */
export function outcomeInAddress(value: string | null): VoteOutcome | null {
  if (value === "voted") return "counted";
  if (value === "already" || value === "ceiling") return value;
  return null;
}

/** The `?poll=` value that tells a reader without JavaScript what happened to their vote. */
export function outcomeForAddress(outcome: VoteOutcome): string {
  return outcome === "counted" ? "voted" : outcome;
}

const VOTER_COOKIE = "poll_voter";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;
const voterId = z.uuid();

/** The voter id from the request's cookies, or null when absent or not one of ours. */
export function readVoterId(cookieHeader: string | null): string | null {
  const parsed = voterId.safeParse(parseCookie(cookieHeader ?? "")[VOTER_COOKIE]);
  return parsed.success ? parsed.data : null;
}

/** Set-Cookie for a voter id: script cannot read it, and other sites' forms do not send it. */
export function voterCookie(id: string, options: { secure: boolean }): string {
  return stringifySetCookie(VOTER_COOKIE, id, {
    path: "/",
    maxAge: ONE_YEAR_SECONDS,
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure,
  });
}
