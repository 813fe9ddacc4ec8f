import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { createLogger } from "../logger";
import { mergePendingSearchEntries } from "../news/search-window";
import { rowsOf } from "./client";
import { reportSkippedPostgres, testDatabases } from "./test-databases";
import { siteUpkeep } from "./upkeep";

reportSkippedPostgres();

const DAY = 24 * 3600_000;
const T0 = new Date("2026-11-29T06:00:00Z");
const at = (ms: number) => () => new Date(T0.getTime() + ms);

describe.each(testDatabases())("the site's daily upkeep on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let next = 0;
  /** `count` new stories, each with its words for search. */
  const insert = async (count: number) => {
    const from = next + 1;
    next += count;
    await handle.db.execute(sql`
      INSERT INTO articles (id, category, link, title, excerpt, content, author, published_at)
      SELECT 'u' || n, 'politics', 'https://sample.example.org/u' || n,
             'Council votes on harbor plan ' || n, 'The city council met on ' || n, '',
             'Staff Writer', now() FROM generate_series(${from}::int, ${next}::int) AS n`);
  };
  const lastRun = async () => {
    const rows = rowsOf<{ last_run_at: Date | string }>(
      await handle.db.execute(sql`SELECT last_run_at FROM upkeep_runs WHERE task = 'daily'`),
    );
    return rows[0] ? new Date(rows[0].last_run_at).toISOString() : null;
  };

  /** The site's database, its `execute` (the upkeep's work) replaced: a fault at the driver. */
  const withExecute = (execute: () => Promise<unknown>) => ({
    kind: handle.kind,
    db: new Proxy(handle.db, {
      get: (db, key) => (key === "execute" ? execute : Reflect.get(db, key)),
    }),
  });

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  beforeEach(async () => {
    await handle.db.execute(sql`DELETE FROM upkeep_runs`);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it.runIf(database.name === "pglite")(
    "vacuums and analyses the embedded database: its planner learns the table",
    async () => {
      const known = async () => {
        const [row] = rowsOf<{ visible: number; rows: number }>(
          await handle.db.execute(
            sql`SELECT relallvisible AS visible, reltuples AS rows FROM pg_class WHERE relname = 'articles'`,
          ),
        );
        return { visible: Number(row?.visible ?? 0), rows: Number(row?.rows ?? 0) };
      };
      await insert(2000);
      expect((await known()).visible).toBe(0);
      await siteUpkeep(handle, createLogger("silent"), { now: at(0) })();
      expect(await known()).toMatchObject({ rows: 2000 });
      expect((await known()).visible).toBeGreaterThan(0);
    },
  );

  it("leaves new stories' search entries pending until it runs, then merges them", async () => {
    await insert(50);
    // The precondition: storing stories leaves entries in GIN's pending lists.
    expect(await mergePendingSearchEntries(handle.db)).toBeGreaterThan(0);

    await insert(50);
    expect(await siteUpkeep(handle, createLogger("silent"), { now: at(0) })()).toBe(true);
    expect(await mergePendingSearchEntries(handle.db)).toBe(0);
    expect(await lastRun()).toBe(T0.toISOString());
  });

  it("runs once a day across the site's processes, whichever asks first", async () => {
    const logger = createLogger("silent");
    // Two processes (web machines, `news ingest` runs) each with their own upkeep.
    const one = siteUpkeep(handle, logger, { now: at(0) });
    const other = siteUpkeep(handle, logger, { now: at(0) });
    expect((await Promise.all([one(), other()])).sort()).toEqual([false, true]);

    await insert(10);
    expect(await siteUpkeep(handle, logger, { now: at(DAY - 1) })()).toBe(false);
    expect(await mergePendingSearchEntries(handle.db)).toBeGreaterThan(0);
    expect(await lastRun()).toBe(T0.toISOString());

    await insert(10);
    expect(await siteUpkeep(handle, logger, { now: at(DAY) })()).toBe(true);
    expect(await mergePendingSearchEntries(handle.db)).toBe(0);
    expect(await lastRun()).toBe(new Date(T0.getTime() + DAY).toISOString());
  });

  it("tries a run that failed again an hour later, not a day later", async () => {
    const lines: { level: number; msg: string; retryAfterMinutes?: number }[] = [];
    const logger = pino(
      { level: "info" },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    );
    // The day is claimed, then the connection drops before the work (VACUUM or the merge) is done.
    const dropping = withExecute(() =>
      Promise.reject(new Error("Connection terminated unexpectedly")),
    );
    expect(await siteUpkeep(dropping, logger, { now: at(0) })()).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "the site's daily upkeep could not run",
        retryAfterMinutes: 60,
      }),
    ]);

    await insert(10);
    expect(await siteUpkeep(handle, logger, { now: at(3600_000 - 1) })()).toBe(false);
    expect(await mergePendingSearchEntries(handle.db)).toBeGreaterThan(0);
    await insert(10);
    expect(await siteUpkeep(handle, logger, { now: at(3600_000) })()).toBe(true);
    expect(await mergePendingSearchEntries(handle.db)).toBe(0);
    // Then once a day from that run.
    expect(await siteUpkeep(handle, logger, { now: at(DAY) })()).toBe(false);
    expect(await lastRun()).toBe(new Date(T0.getTime() + 3600_000).toISOString());
  });

  it("tries a run whose process died before it ended again an hour later", async () => {
    const logger = createLogger("silent");
    // The day is claimed, then the work never ends: the process was killed during its VACUUM.
    const dying = withExecute(() => new Promise<never>(() => {}));
    void siteUpkeep(dying, logger, { now: at(0) })();
    await expect.poll(lastRun).not.toBeNull();

    expect(await siteUpkeep(handle, logger, { now: at(3600_000 - 1) })()).toBe(false);
    expect(await siteUpkeep(handle, logger, { now: at(3600_000) })()).toBe(true);
    expect(await lastRun()).toBe(new Date(T0.getTime() + 3600_000).toISOString());
  });

  it("keeps another process's later claim when its own run fails", async () => {
    const logger = createLogger("silent");
    let other: Promise<boolean> | undefined;
    // While this run fails, another process has claimed the next day's upkeep.
    const racing = withExecute(async () => {
      other = siteUpkeep(handle, logger, { now: at(DAY) })();
      await other;
      throw new Error("Connection terminated unexpectedly");
    });
    expect(await siteUpkeep(racing, logger, { now: at(0) })()).toBe(false);
    expect(await other).toBe(true);
    expect(await lastRun()).toBe(new Date(T0.getTime() + DAY).toISOString());
  });

  it("says so in the log and goes on when the database cannot do it", async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: "info" },
      { write: (line: string) => void lines.push(JSON.parse(line)) },
    );
    const closed = await database.open();
    await closed.dispose();
    const upkeep = siteUpkeep(closed, logger, { now: at(0) });
    await expect(upkeep()).resolves.toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: "the site's daily upkeep could not run" }),
    ]);
  });
});
