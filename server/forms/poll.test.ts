import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContent } from "../content/load";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import {
  ALREADY_VOTED,
  castVote,
  currentResults,
  invalidOption,
  pollViewFor,
  postedVote,
  readVoterId,
  tally,
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

  it("counts one vote per address key; the key changes with the day and the poll", async () => {
    const secret = Buffer.alloc(32, 3);
    const monday = new Date(Date.UTC(2026, 10, 23, 18));
    const key = voterAddressKey(secret, POLL.id, "198.51.100.7", monday);
    expect(key).toBe(
      voterAddressKey(secret, POLL.id, "198.51.100.7", new Date(Date.UTC(2026, 10, 23, 1))),
    );
    const tuesdayKey = voterAddressKey(
      secret,
      POLL.id,
      "198.51.100.7",
      new Date(Date.UTC(2026, 10, 24, 1)),
    );
    expect(tuesdayKey).not.toBe(key);
    expect(voterAddressKey(secret, "another-poll", "198.51.100.7", monday)).not.toBe(key);
    expect(voterAddressKey(secret, POLL.id, "198.51.100.8", monday)).not.toBe(key);

    const voters = ["aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"];
    const vote = (voter: string, addressKey: string) =>
      castVote(handle.db, POLL, voter, { option: "Homelessness" }, addressKey);
    expect(await vote(voters[0] ?? "", key)).toMatchObject({ counted: true });
    expect(await vote(voters[1] ?? "", key)).toMatchObject({ counted: false });
    expect(await vote(voters[1] ?? "", tuesdayKey)).toMatchObject({ counted: true });
    await handle.db.delete(pollVotes);
  });

  it("stores a valid vote once; a second vote by the same voter changes nothing and says so", async () => {
    const first = await castVote(handle.db, POLL, VOTER_A, { option: "Homelessness" });
    expect(first).toEqual({
      ok: true,
      counted: true,
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
    expect(await pollViewFor(handle.db, POLL, VOTER_B, true)).toMatchObject({
      status: "results",
      message: VOTE_THANKS,
    });
    expect(await pollViewFor(handle.db, POLL, VOTER_C)).toEqual({ status: "open" });
    expect(await pollViewFor(handle.db, POLL, VOTER_C, true)).toEqual({ status: "open" });
    expect(await pollViewFor(handle.db, POLL, null)).toEqual({ status: "open" });
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
    expect(voterCookie(VOTER_A, { secure: false })).toBe(
      `poll_voter=${VOTER_A}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax`,
    );
    expect(voterCookie(VOTER_A, { secure: true })).toMatch(/; Secure$/);
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
