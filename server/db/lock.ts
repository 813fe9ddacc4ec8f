import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * PGlite keeps a whole PostgreSQL inside one process, and two processes writing one data directory
 * corrupt it. Every process that opens the directory first takes this lock file.
 */

export interface DataDirLock {
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly owner: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by ${owner} (process ${pid}). ` +
        `Stop that process first, or set DATABASE_URL to use PostgreSQL, which many processes can share.`,
    );
    this.name = "DataDirInUseError";
  }
}

const LOCK_FILE = "news.lock";

interface LockContent {
  pid: number;
  owner: string;
}

/** Whether a process `pid` runs on this machine (EPERM: it runs, as someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(file: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockContent>;
    if (typeof parsed.pid === "number" && typeof parsed.owner === "string") {
      return { pid: parsed.pid, owner: parsed.owner };
    }
  } catch {
    // Unreadable or half-written: treated as stale below.
  }
  return undefined;
}

/** Waits `ms` milliseconds, blocking: taking the lock is synchronous, and rarely waits at all. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Removes `file` if its holder is gone, holding `file.break` meanwhile; otherwise leaves it. */
function breakStale(file: string, mine: string, dataDir: string): void {
  const breaker = `${file}.break`;
  try {
    fs.linkSync(mine, breaker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Another process is breaking it now (for microseconds, longer on a busy machine), or died
    // doing so. Gone already when read: that process is done, and the next attempt sees what it
    // left.
    const other = readLock(breaker);
    if (other && !isAlive(other.pid)) fs.rmSync(breaker, { force: true });
    else pause(5);
    return;
  }
  try {
    const holder = readLock(file);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
      throw new DataDirInUseError(dataDir, holder.pid, holder.owner);
    }
    fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

export function acquireDataDirLock(dataDir: string, owner: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const content = JSON.stringify({ pid: process.pid, owner } satisfies LockContent);
  // Written whole under a name of this process's, then linked in: a lock file is never seen
  // half-written, and the link fails when one is there (two processes cannot both make it).
  const mine = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(mine, content, { flag: "wx" });
  try {
    // Each attempt either takes the lock, finds it held, or finds it stale and breaks it (or waits
    // for the process breaking it): a few attempts, unless many processes start at once.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      try {
        fs.linkSync(mine, file);
        return {
          release() {
            const current = readLock(file);
            if (current?.pid === process.pid) fs.rmSync(file, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = readLock(file);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirInUseError(dataDir, holder.pid, holder.owner);
      }
      // The holder died without cleaning up (kill -9, power loss): the lock is stale. One process
      // at a time may remove a lock, the one that holds the breaker (linked in as the lock is);
      // it reads the lock again first, and no other process can replace a lock that is there.
      breakStale(file, mine, dataDir);
    }
  } finally {
    fs.rmSync(mine, { force: true });
  }
  throw new Error(`Could not take the lock ${file}`);
}
