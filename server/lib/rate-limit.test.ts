import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { formRateLimits } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { databaseRateLimits, memoryRateLimits, type RateLimits } from "./rate-limit";

const MINUTE = 60_000;
const form = (key: string) => [{ key, limit: 3, windowMs: 10 * MINUTE }];

/** The same rules in memory and in each database; the database's keys hold across machines. */
const stores = [
  { name: "memory", open: async () => ({ limits: memoryRateLimits(), handle: undefined }) },
  ...testDatabases().map((database) => ({
    name: database.name,
    open: async () => {
      const handle = await database.open();
      await handle.migrate();
      return { limits: databaseRateLimits(handle.db), handle };
    },
  })),
];

describe.each(stores)("rate limits counted in $name", (store) => {
  let limits: RateLimits;
  let handle: Awaited<ReturnType<(typeof stores)[number]["open"]>>["handle"];
  let clock = Date.parse("2026-12-01T12:00:00Z");

  beforeAll(async () => {
    ({ limits, handle } = await store.open());
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("lets `limit` through in the window, then says when to come back; no address is stored", async () => {
    const verdicts = [];
    for (let i = 0; i < 4; i++) {
      verdicts.push(await limits.hit(form("newsletter:203.0.113.7"), clock));
      clock += MINUTE;
    }
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    // The first counted submission was 3 minutes before the refusal: 7 minutes to wait.
    expect(verdicts[3]).toEqual({ allowed: false, retryAfterSeconds: 7 * 60 });
    // Another form, another address: counted apart.
    expect((await limits.hit(form("contact:203.0.113.7"), clock)).allowed).toBe(true);
    expect((await limits.hit(form("newsletter:203.0.113.8"), clock)).allowed).toBe(true);
    // A sliding window: once the first falls out of it, one more is let through, not three.
    clock += 6 * MINUTE;
    expect((await limits.hit(form("newsletter:203.0.113.7"), clock)).allowed).toBe(true);
    expect((await limits.hit(form("newsletter:203.0.113.7"), clock)).allowed).toBe(false);
    if (handle) {
      const stored = await handle.db.select().from(formRateLimits);
      expect(JSON.stringify(stored)).not.toContain("203.0.113");
    }
  });

  it("counts a hit against all its keys or, when one is at its limit, against none", async () => {
    clock += 3_600_000;
    const signIn = (account: string) => [
      { key: `account:${account}`, limit: 2, windowMs: 15 * MINUTE },
      { key: "address:198.51.100.1", limit: 3, windowMs: 15 * MINUTE },
    ];
    const verdicts = [];
    for (const account of ["a", "a", "a", "b", "c"]) {
      verdicts.push((await limits.hit(signIn(account), clock)).allowed);
    }
    // The third try at `a` was refused and not counted against the address, so `b` still fit.
    expect(verdicts).toEqual([true, true, false, true, false]);
  });

  it("takes back one hit, or all of a key's", async () => {
    clock += 3_600_000;
    const rule = form("poll:192.0.2.1");
    for (let i = 0; i < 3; i++) await limits.hit(rule, clock + i);
    expect((await limits.hit(rule, clock + 3)).allowed).toBe(false);
    // A time never counted takes nothing back.
    await limits.forget("poll:192.0.2.1", clock + 3);
    expect((await limits.hit(rule, clock + 4)).allowed).toBe(false);
    await limits.forget("poll:192.0.2.1", clock + 1);
    expect((await limits.hit(rule, clock + 4)).allowed).toBe(true);
    expect((await limits.hit(rule, clock + 5)).allowed).toBe(false);
    await limits.forget("poll:192.0.2.1");
    expect((await limits.hit(rule, clock + 6)).allowed).toBe(true);
  });
});

describe.each(testDatabases())("rate limits shared in the database ($name)", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  /** A second connection pool to the same database: another machine (PostgreSQL only). */
  let other: DatabaseHandle | undefined;
  const now = Date.parse("2026-12-01T12:00:00Z");

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    if (handle.url)
      other = await openDatabase({ kind: "postgres", url: handle.url }, { owner: "t" });
  });
  afterAll(async () => {
    await other?.close();
    await handle?.dispose();
  });

  it.skipIf(!database.name.includes("postgres"))(
    "two machines at once share one allowance",
    async () => {
      const machines = [databaseRateLimits(handle.db), databaseRateLimits((other ?? handle).db)];
      const verdicts = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          machines[i % 2]?.hit(form("poll:198.51.100.9"), now + i),
        ),
      );
      expect(verdicts.filter((v) => v?.allowed)).toHaveLength(3);
    },
  );

  it("falls back to the process's own count when the database cannot answer", async () => {
    const broken = await openDatabase(
      { kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" },
      { owner: "t" },
    );
    const fallback = databaseRateLimits(broken.db, { orInMemory: true });
    const rule = [{ key: "k", limit: 1, windowMs: MINUTE }];
    expect((await fallback.hit(rule, now)).allowed).toBe(true);
    expect((await fallback.hit(rule, now)).allowed).toBe(false);
    await broken.close();
  });
});

describe("rate limits counted in memory", () => {
  it("remember at most `maxKeys` keys, forgetting the stalest first", async () => {
    const limits = memoryRateLimits(2);
    const rule = (key: string) => [{ key, limit: 1, windowMs: MINUTE }];
    for (const key of ["a", "b", "c"]) await limits.hit(rule(key), 0);
    expect((await limits.hit(rule("a"), 1)).allowed).toBe(true);
    expect((await limits.hit(rule("c"), 1)).allowed).toBe(false);
  });
});
