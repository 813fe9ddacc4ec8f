import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminQuery } from "./admin";
import { LockLostError, openDatabase, rowsOf, sharedBuffersMb } from "./client";
import { endLockHolder, testDatabases, type TestDatabase } from "./test-databases";

/**
 * PostgreSQL ends a connection the site holds outside the pool (in a transaction, or holding a
 * lock through an ingest pass): a restart, a failover, an administrator. That fails the work on it,
 * never the process. Without a listener on such a connection, Node ends the process on the
 * server's goodbye, and Vitest reports the uncaught error.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl)
  console.warn("TEST_DATABASE_URL is not set: the connection-loss tests were NOT run.");

const postgres = testDatabases().find((database) => database.name === "postgres");

describe.skipIf(!postgres)("a PostgreSQL connection ended by the server", () => {
  let handle: Awaited<ReturnType<NonNullable<typeof postgres>["open"]>>;
  beforeAll(async () => {
    if (!postgres) return;
    handle = await postgres.open();
    await handle.migrate();
  }, 30_000);
  afterAll(async () => {
    await handle?.dispose();
  });

  /** Waits until the server no longer lists the ended backend `pid`. */
  async function untilGone(pid: number) {
    await expect
      .poll(
        async () =>
          (await adminQuery(adminUrl ?? "", "SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]))
            .rowCount,
      )
      .toBe(0);
    // The goodbye reaches the idle client; give it a moment to be read.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const backendPid = async (run: (query: ReturnType<typeof sql>) => Promise<unknown>) => {
    const [row] = rowsOf<{ pid: number }>(await run(sql`SELECT pg_backend_pid() AS pid`));
    if (!row) throw new Error("no backend pid");
    return row.pid;
  };

  it("fails the transaction it was in, and the next query gets a new connection", async () => {
    let reportPid!: (pid: number) => void;
    const pid = new Promise<number>((resolve) => (reportPid = resolve));
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));

    const transaction = handle.db.transaction(async (tx) => {
      reportPid(await backendPid((query) => tx.execute(query)));
      await paused;
      await tx.execute(sql`SELECT 1`);
    });
    // The error and its causes, as one line of text.
    const settled = transaction.then(
      () => "committed",
      (error: unknown) => {
        const messages: string[] = [];
        for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
        return messages.join(" <- ");
      },
    );

    const ended = await pid;
    await adminQuery(adminUrl ?? "", "SELECT pg_terminate_backend($1)", [ended]);
    await untilGone(ended);
    resume();
    expect(await settled).toMatch(/not queryable|terminat/i);
    expect(await handle.ping()).toBe(true);
  });

  it("tells work under a lock that the lock was lost, and lets it finish", async () => {
    const lockId = 774_411;
    const outcome = await handle.withLock(lockId, { wait: false }, async (lockLost) => {
      expect(lockLost.aborted).toBe(false);
      const pid = await endLockHolder(handle.url ?? "", lockId);
      if (pid === undefined) throw new Error("no session held the lock");
      await untilGone(pid);
      await expect.poll(() => lockLost.aborted).toBe(true);
      expect(lockLost.reason).toBeInstanceOf(LockLostError);
      // The work goes on with the pool's other connections.
      return handle.ping();
    });
    expect(outcome).toEqual({ acquired: true, value: true });
    // Ending the session freed the lock: it can be taken again, and is not reported lost.
    expect(
      await handle.withLock(lockId, { wait: false }, async (lockLost) => lockLost.aborted),
    ).toEqual({ acquired: true, value: false });
  });
});

describe.each(testDatabases())("the lock shared by the processes on $name", (database) => {
  let handle: Awaited<ReturnType<TestDatabase["open"]>>;
  beforeAll(async () => {
    handle = await database.open();
  }, 30_000);
  afterAll(async () => {
    await handle?.dispose();
  });

  it("is held from the first moment of the work, before its first pause", async () => {
    const lockId = 774_412;
    let inner: Promise<{ acquired: boolean }> | undefined;
    const outer = await handle.withLock(lockId, { wait: false }, async () => {
      // Started before the work awaits anything: the lock must already be taken.
      inner = handle.withLock(lockId, { wait: false }, async () => "ran");
      return (await inner).acquired;
    });
    expect(outer).toEqual({ acquired: true, value: false });
    expect(await inner).toEqual({ acquired: false });
  });

  it("lets waiting holders in one at a time, and after a failed holder too", async () => {
    const lockId = 774_413;
    let inside = 0;
    let most = 0;
    const log: string[] = [];
    const hold = (name: string, fail = false) =>
      handle.withLock(lockId, { wait: true }, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 20));
        log.push(name);
        inside -= 1;
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const outcomes = await Promise.allSettled([hold("a"), hold("b", true), hold("c"), hold("d")]);
    expect(most).toBe(1);
    expect(log.toSorted()).toEqual(["a", "b", "c", "d"]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    expect(await handle.withLock(lockId, { wait: false }, async () => "free")).toEqual({
      acquired: true,
      value: "free",
    });
  });
});

describe.each(testDatabases())("a change announced on $name", (database) => {
  it("has told the announcing process's listeners when the announcement resolves", async () => {
    const handle = await database.open();
    try {
      let told = 0;
      const stop = await handle.onChange(() => told++);
      await handle.announceChange();
      // Not a notification's round trip later: a page asked for next must see emptied caches.
      expect(told).toBeGreaterThanOrEqual(1);
      stop();
    } finally {
      await handle.dispose();
    }
  });
});

describe.skipIf(!postgres)("a change announced by another process on PostgreSQL", () => {
  it("reaches this process's listeners once, and the announcer's own once", async () => {
    const first = await postgres?.open();
    if (!first?.url) throw new Error("no PostgreSQL test database");
    const second = await openDatabase({ kind: "postgres", url: first.url }, { owner: "test" });
    try {
      let heardByFirst = 0;
      let heardBySecond = 0;
      await first.onChange(() => heardByFirst++);
      await second.onChange(() => heardBySecond++);
      await first.announceChange();
      await expect.poll(() => heardBySecond).toBe(1);
      // The announcer's own notification comes back to it too, and is not told twice.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heardByFirst).toBe(1);
    } finally {
      await second.close();
      await first.dispose();
    }
  });
});

describe("the embedded database's shared buffers", () => {
  it("are an eighth of its tables and indexes, from 16 MB to 64 MB", () => {
    const MB = 2 ** 20;
    expect(sharedBuffersMb(0)).toBe(16);
    expect(sharedBuffersMb(100 * MB)).toBe(16);
    expect(sharedBuffersMb(200 * MB)).toBe(25);
    expect(sharedBuffersMb(504 * MB)).toBe(63);
    expect(sharedBuffersMb(5_000 * MB)).toBe(64);
  });

  it("are set from what the data folder holds when it is opened", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "news-buffers-"));
    const buffers = async () => {
      const handle = await openDatabase({ kind: "pglite", dataDir }, { owner: "a test" });
      try {
        const [row] = rowsOf<{ shared_buffers: string }>(
          await handle.db.execute(sql`SHOW shared_buffers`),
        );
        return row?.shared_buffers;
      } finally {
        await handle.close();
      }
    };
    try {
      expect(await buffers()).toBe("16MB");
      // 320 MB more on disk (a file with no blocks written: its size is what is counted), beside
      // the 20-odd megabytes of a new data folder's databases.
      const probe = path.join(dataDir, "base", "sizing-probe");
      fs.writeFileSync(probe, "");
      fs.truncateSync(probe, 320 * 2 ** 20);
      expect(await buffers()).toMatch(/^4[0-4]MB$/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
