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

export function acquireDataDirLock(dataDir: string, owner: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const content = JSON.stringify({ pid: process.pid, owner } satisfies LockContent);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, content, { flag: "wx" });
      return {
        release() {
          const current = readLock(file);
          if (current?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(file);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DataDirInUseError(dataDir, holder.pid, holder.owner);
      }
      // The holder died without cleaning up (kill -9, power loss): the lock is stale.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
