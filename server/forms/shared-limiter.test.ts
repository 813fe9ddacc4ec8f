import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { formRateLimits } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { RateLimiter } from "./guard";
import { databaseFormLimiter } from "./shared-limiter";

/**
 * Form submissions counted in the database: one allowance per address whichever process or
 * machine answers, even for submissions at the same moment; no address stored.
 */
describe.each(testDatabases())("form rate limits counted in the database ($name)", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  /** A second connection pool to the same database: another machine (PostgreSQL only). */
  let other: DatabaseHandle | undefined;
  let clock = Date.parse("2026-12-01T12:00:00Z");
  const now = () => clock;

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

  const limiter = (db: DatabaseHandle) =>
    databaseFormLimiter(db.db, new RateLimiter(3, 10 * 60_000), { now });

  it("lets `limit` through in the window, then says when to come back; no address is stored", async () => {
    const one = limiter(handle);
    const verdicts = [];
    for (let i = 0; i < 4; i++) {
      verdicts.push(await one.hit("newsletter:203.0.113.7"));
      clock += 60_000;
    }
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    // The first counted submission was 3 minutes before the refusal: 7 minutes to wait.
    expect(verdicts[3]).toEqual({ allowed: false, retryAfterSeconds: 7 * 60 });
    // Another form, another address: counted apart.
    expect((await one.hit("contact:203.0.113.7")).allowed).toBe(true);
    expect((await one.hit("newsletter:203.0.113.8")).allowed).toBe(true);
    // Once the first falls out of the window, one more is let through.
    clock += 6 * 60_000;
    expect((await one.hit("newsletter:203.0.113.7")).allowed).toBe(true);
    expect((await one.hit("newsletter:203.0.113.7")).allowed).toBe(false);
    const stored = await handle.db.select().from(formRateLimits);
    expect(JSON.stringify(stored)).not.toContain("203.0.113");
  });

  it.skipIf(!database.name.includes("postgres"))(
    "two machines at once share one allowance",
    async () => {
      clock += 3_600_000;
      const machines = [limiter(handle), limiter(other ?? handle)];
      const verdicts = await Promise.all(
        Array.from({ length: 12 }, (_, i) => machines[i % 2]?.hit("poll:198.51.100.9")),
      );
      expect(verdicts.filter((v) => v?.allowed)).toHaveLength(3);
    },
  );

  it("falls back to the process's own count when the database cannot answer", async () => {
    const broken = await openDatabase(
      { kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" },
      { owner: "t" },
    );
    const own = new RateLimiter(1, 60_000);
    const fallback = databaseFormLimiter(broken.db, own, { now });
    expect((await fallback.hit("k")).allowed).toBe(true);
    expect((await fallback.hit("k")).allowed).toBe(false);
    await broken.close();
  });
});
