import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "../content/load";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import {
  ALREADY_VOTED,
  castVote,
  currentResults,
  invalidOption,
  NETWORK_CEILING_REACHED,
  NETWORK_VOTES_PER_DAY,
  pollViewFor,
  postedVote,
  readVoterId,
  tally,
  UNSIGNED_NETWORK_VOTES_PER_DAY,
  VOTE_THANKS,
  voterAddressKey,
  voterCookie,
} from "./poll";
import { pollVotes } from "../db/schema";
import { pollResults } from "./repository";

reportSkippedPostgres();

const POLL = loadContent("content").community.poll;
const POLL_OPTIONS = POLL.options;

const VOTER_A = "6f1c2d3e-4b5a-4c6d-8e7f-901234567890";
const VOTER_B = "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d";
const VOTER_C = "11111111-2222-4333-8444-555555555555";

describe.each(testDatabases())("poll on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("keys a network by day and poll; an IPv6 /64 is one network", () => {
    const secret = Buffer.alloc(32, 3);
    const monday = new Date(Date.UTC(2026, 10, 23, 18));
    const key = voterAddressKey(secret, POLL.id, "198.51.100.7", monday);
    expect(key).toBe(
      voterAddressKey(secret, POLL.id, "198.51.100.7", new Date(Date.UTC(2026, 10, 23, 1))),
    );
    expect(
      voterAddressKey(secret, POLL.id, "198.51.100.7", new Date(Date.UTC(2026, 10, 24, 1))),
    ).not.toBe(key);
    expect(voterAddressKey(secret, "another-poll", "198.51.100.7", monday)).not.toBe(key);
    expect(voterAddressKey(secret, POLL.id, "198.51.100.8", monday)).not.toBe(key);
    expect(voterAddressKey(secret, POLL.id, "2001:db8:1:2::5", monday)).toBe(
      voterAddressKey(secret, POLL.id, "2001:db8:1:2:ffff::9", monday),
    );
  });

  it("counts every reader of one household or phone network, up to a ceiling a script reaches", async () => {
    const key = voterAddressKey(Buffer.alloc(32, 4), POLL.id, "203.0.113.50");
    const voter = (i: number) => `bbbbbbbb-0000-4000-8000-${String(i).padStart(12, "0")}`;
    // Readers behind one address, each in their own browser, voting at once: all counted.
    const readers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        castVote(handle.db, POLL, voter(i), { option: "Homelessness" }, key),
      ),
    );
    expect(readers.every((r) => r.ok && r.counted)).toBe(true);
    // A script dropping its cookie every time stops at the ceiling, and is told so.
    const script = [];
    for (let i = 0; i < NETWORK_VOTES_PER_DAY; i++) {
      script.push(
        await castVote(handle.db, POLL, voter(1000 + i), { option: "Transportation" }, key),
      );
    }
    const counted = script.filter((r) => r.ok && r.counted).length;
    expect(counted + 40).toBe(NETWORK_VOTES_PER_DAY);
    const refused = script.find((r) => r.ok && !r.counted);
    expect(refused).toMatchObject({
      outcome: "ceiling",
      view: { status: "results", message: NETWORK_CEILING_REACHED },
    });
    await handle.db.delete(pollVotes);
  });

  it("gives votes without the page's form token a much lower ceiling", async () => {
    const key = voterAddressKey(Buffer.alloc(32, 5), POLL.id, "203.0.113.51");
    const outcomes = [];
    for (let i = 0; i < UNSIGNED_NETWORK_VOTES_PER_DAY + 2; i++) {
      const voter = `cccccccc-0000-4000-8000-${String(i).padStart(12, "0")}`;
      const vote = await castVote(
        handle.db,
        POLL,
        voter,
        { option: "Housing affordability" },
        key,
        false,
      );
      outcomes.push(vote.ok ? vote.outcome : "invalid");
    }
    expect(outcomes).toEqual([
      ...Array<string>(UNSIGNED_NETWORK_VOTES_PER_DAY).fill("counted"),
      "ceiling",
      "ceiling",
    ]);
    await handle.db.delete(pollVotes);
  });

  it("stores a valid vote once; a second vote by the same voter changes nothing and says so", async () => {
    const first = await castVote(handle.db, POLL, VOTER_A, { option: "Homelessness" });
    expect(first).toEqual({
      ok: true,
      counted: true,
      outcome: "counted",
      view: { status: "results", message: VOTE_THANKS, results: expect.any(Object) },
    });
    const again = await castVote(handle.db, POLL, VOTER_A, { option: "Transportation" });
    expect(again).toMatchObject({ ok: true, counted: false });
    expect(again.view).toMatchObject({ status: "results", message: ALREADY_VOTED });

    expect(await pollResults(handle.db, POLL.id)).toEqual([{ option: "Homelessness", votes: 1 }]);
    const results = await currentResults(handle.db, POLL);
    expect(results.total).toBe(1);
    expect(results.tallies.find((t) => t.option === "Homelessness")).toEqual({
      option: "Homelessness",
      votes: 1,
      percent: 100,
    });
  });

  it("counts other voters and shows the voter's state on arrival", async () => {
    await castVote(handle.db, POLL, VOTER_B, { option: "Jobs & economy" });
    expect(await pollViewFor(handle.db, POLL, VOTER_B)).toMatchObject({
      status: "results",
      message: ALREADY_VOTED,
      results: { total: 2 },
    });
    expect(await pollViewFor(handle.db, POLL, VOTER_B, "counted")).toMatchObject({
      status: "results",
      message: VOTE_THANKS,
    });
    expect(await pollViewFor(handle.db, POLL, VOTER_C)).toEqual({ status: "open" });
    expect(await pollViewFor(handle.db, POLL, null)).toEqual({ status: "open" });
    // Sent back from voting in a browser that kept no cookie: still told what happened.
    expect(await pollViewFor(handle.db, POLL, null, "counted")).toMatchObject({
      status: "results",
      message: VOTE_THANKS,
    });
    expect(await pollViewFor(handle.db, POLL, VOTER_C, "ceiling")).toMatchObject({
      status: "results",
      message: NETWORK_CEILING_REACHED,
    });
  });

  it.each([
    ["an unknown option", { option: "Parking" }],
    ["an option in other case", { option: "homelessness" }],
    ["no option", {}],
    ["an empty option", { option: "" }],
    ["two options in one post", postedVote(posted(["Homelessness", "Jobs & economy"]))],
    ["a post without an option", postedVote(posted([]))],
  ])("rejects %s and stores nothing", async (_label, form) => {
    const before = await currentResults(handle.db, POLL);
    const outcome = await castVote(handle.db, POLL, VOTER_C, form);
    expect(outcome).toEqual({ ok: false, view: { status: "open", error: invalidOption(POLL) } });
    expect(await currentResults(handle.db, POLL)).toEqual(before);
    expect(await pollViewFor(handle.db, POLL, VOTER_C)).toEqual({ status: "open" });
  });
});

/** A posted poll form with these `option` fields and the page's other fields. */
function posted(options: string[]): FormData {
  const form = new FormData();
  form.set("website", "");
  for (const option of options) form.append("option", option);
  return form;
}

describe("postedVote", () => {
  it("is the one option a post carries, and every option when there are several", () => {
    expect(postedVote(posted(["Homelessness"]))).toEqual({ option: "Homelessness" });
    expect(postedVote(posted(["Homelessness", "Transportation"]))).toEqual({
      option: ["Homelessness", "Transportation"],
    });
    expect(postedVote(posted([]))).toEqual({ option: [] });
  });
});

describe("tally", () => {
  it("lists every option in order with counts and whole percentages", () => {
    expect(
      tally(POLL_OPTIONS, [
        { option: "Transportation", votes: 1 },
        { option: "Housing affordability", votes: 2 },
      ]),
    ).toEqual({
      total: 3,
      tallies: [
        { option: "Housing affordability", votes: 2, percent: 67 },
        { option: "Homelessness", votes: 0, percent: 0 },
        { option: "Transportation", votes: 1, percent: 33 },
        { option: "Climate change", votes: 0, percent: 0 },
        { option: "Jobs & economy", votes: 0, percent: 0 },
      ],
    });
  });

  it("shows zero percent everywhere before the first vote and ignores retired options", () => {
    const results = tally(POLL_OPTIONS, [{ option: "Retired option", votes: 4 }]);
    expect(results.total).toBe(0);
    expect(results.tallies.map((t) => t.option)).toEqual([...POLL_OPTIONS]);
    expect(results.tallies.every((t) => t.votes === 0 && t.percent === 0)).toBe(true);
  });
});

describe("voter cookie", () => {
  it("is HttpOnly and SameSite=Lax, Secure only over HTTPS", () => {
    // The header as it was written by hand until the cookie package wrote it, in any order.
    const parts = (header: string) => header.split("; ").sort();
    const before = `poll_voter=${VOTER_A}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`;
    expect(parts(voterCookie(VOTER_A, { secure: false }))).toEqual(parts(before));
    expect(parts(voterCookie(VOTER_A, { secure: true }))).toEqual(parts(`${before}; Secure`));
  });

  it.each([
    [`poll_voter=${VOTER_A}`, VOTER_A],
    [`theme=dark; poll_voter=${VOTER_B}; other=1`, VOTER_B],
    ["poll_voter=not-a-uuid", null],
    ["poll_voter=", null],
    ["theme=dark", null],
    ["", null],
    [null, null],
  ])("reads %j as %j", (header, expected) => {
    expect(readVoterId(header)).toBe(expected);
  });
});
