import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Focus } from "../../shared/picture";
import type { Inspection } from "./picture";
import type { VariantFormat, VariantShape, VariantWidth } from "./variants";

/** A copy asked of the maker (renderVariant). */
interface VariantJob {
  width: VariantWidth;
  format: VariantFormat;
  shape?: VariantShape;
  focus?: Focus;
}

/** A fixed crop asked of the maker (renderCrop). */
interface CropJob {
  width: number;
  height: number;
  focus?: Focus;
}

/**
 * What sharp does for us: read what a fetched picture is, and make its copies. Two makers answer
 * the same interface: one in this process (the command line, tests of the pictures themselves),
 * and one that hands each job to a child process (the web process: decision 022). libvips decodes
 * a photo into tens of megabytes and keeps its memory after; in a child, that memory is given back
 * when the child exits after a quiet spell, and a picture that crashes or hangs libvips stops the
 * child, not the site.
 */
export interface PictureMaker {
  inspect(bytes: Uint8Array): Promise<Inspection>;
  variant(original: Uint8Array, variant: VariantJob): Promise<Uint8Array>;
  crop(original: Uint8Array, crop: CropJob): Promise<Uint8Array>;
  /** An upload as it is kept: upright, without metadata (cleanOriginal). */
  clean(bytes: Uint8Array): Promise<Uint8Array>;
  /** Ends the child process, if there is one; a later job starts another. */
  close(): Promise<void>;
}

/** sharp in this process, loaded on the first job (about 20 MB), not by every process. */
export function inlinePictureMaker(): PictureMaker {
  return {
    inspect: async (bytes) => (await import("./picture")).inspectPicture(bytes),
    variant: async (original, variant) =>
      (await import("./picture")).renderVariant(original, variant),
    crop: async (original, crop) => (await import("./picture")).renderCrop(original, crop),
    clean: async (bytes) => (await import("./picture")).cleanOriginal(bytes),
    close: async () => undefined,
  };
}

/** A job for the child, and its answer (the messages of server/images/picture-worker.ts). */
export type MakerJob = { id: number; bytes: Uint8Array } & (
  | { op: "inspect" }
  | { op: "variant"; variant: VariantJob }
  | { op: "crop"; crop: CropJob }
  | { op: "clean" }
);
export type MakerReply =
  | { id: number; ok: true; inspection: Inspection }
  | { id: number; ok: true; bytes: Uint8Array }
  | { id: number; ok: false; error: string };

type JobRequest = MakerJob extends infer J ? (J extends MakerJob ? Omit<J, "id"> : never) : never;

export interface ChildMakerOptions {
  /** The child exits after this long without a job, giving its memory back. */
  idleMs?: number;
  /** A job that takes longer stops the child (a picture that hangs libvips); the job fails. */
  jobTimeoutMs?: number;
  /** Told when the child stops on its own (a crash) or is stopped for a job that took too long. */
  onChildStopped?: (reason: string) => void;
}

const DEFAULT_IDLE_MS = 30_000;
const DEFAULT_JOB_TIMEOUT_MS = 60_000;

/**
 * The child is compiled beside the web process (scripts/build-server.js); from the sources it
 * runs through tsx, as the sources do.
 */
function workerEntry(): { path: string; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith(".ts");
  const file = new URL(
    fromSources ? "./picture-worker.ts" : "./picture-worker.js",
    import.meta.url,
  );
  return {
    path: fileURLToPath(file),
    execArgv: fromSources ? ["--import", "tsx"] : ["--max-semi-space-size=2"],
  };
}

/**
 * Hands every job to one child process, one job at a time in the order asked (libvips works on
 * one thread there: a copy takes a core while it is made). The child starts on the first job and
 * exits after `idleMs` without one; when it dies mid-job, that job fails with the reason and the
 * next job starts a new child.
 */
export function childPictureMaker(options: ChildMakerOptions = {}): PictureMaker {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  /** The child answering jobs now; null before the first job and after it stops or is let go. */
  let current: Child | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();

  interface Child {
    process: ChildProcess;
    /** Settles when the child says it is ready, or fails if it exits first. */
    ready: Promise<void>;
    /** The jobs it was handed, by id, and how to settle each. */
    jobs: Map<number, (reply: MakerReply | Error) => void>;
    /** Kills it; the jobs it holds fail with `reason`. */
    stop(reason: string): void;
  }

  function start(): Child {
    const entry = workerEntry();
    const worker = fork(entry.path, [], {
      execArgv: entry.execArgv,
      // glibc gives each of libvips' threads its own arena of memory; two keep the child's peaks
      // lower (`npm run bench:pictures` reports them, docs/BENCHMARKS.md).
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" },
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let stopReason: string | null = null;
    const jobs: Child["jobs"] = new Map();
    const child: Child = {
      process: worker,
      jobs,
      ready: new Promise<void>((resolve, reject) => {
        worker.on("message", (message: MakerReply | { ready: true }) => {
          if ("ready" in message) return resolve();
          jobs.get(message.id)?.(message);
          jobs.delete(message.id);
        });
        worker.on("error", reject);
        worker.on("exit", (code, signal) => {
          const reason =
            stopReason ?? (signal ? `killed by ${signal}` : `exited with code ${code}`);
          reject(new Error(`The picture maker did not start: ${reason}`));
          for (const settle of jobs.values())
            settle(new Error(`The picture maker stopped: ${reason}`));
          jobs.clear();
          if (current !== child) return; // Let go on purpose: idle or closed.
          current = null;
          options.onChildStopped?.(reason);
        });
      }),
      stop(reason) {
        stopReason = reason;
        worker.kill("SIGKILL");
      },
    };
    return child;
  }

  /** Lets the child go: it exits when its channel closes (picture-worker.ts). */
  function letGo(child: Child): Promise<void> {
    if (current === child) current = null;
    clearTimeout(idleTimer);
    const worker = child.process;
    if (worker.exitCode !== null || worker.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    if (worker.connected) worker.disconnect();
    return exited;
  }

  function ask(request: JobRequest): Promise<MakerReply> {
    const turn = queue.then(async () => {
      clearTimeout(idleTimer);
      const child = (current ??= start());
      await child.ready;
      const id = nextId++;
      const reply = new Promise<MakerReply | Error>((resolve) => child.jobs.set(id, resolve));
      const timer = setTimeout(
        () => child.stop(`a picture took more than ${jobTimeoutMs} ms`),
        jobTimeoutMs,
      );
      child.process.send({ ...request, id });
      const answer = await reply;
      clearTimeout(timer);
      if (current === child) {
        idleTimer = setTimeout(() => void letGo(child), idleMs);
        idleTimer.unref();
      }
      if (answer instanceof Error) throw answer;
      return answer;
    });
    queue = turn.catch(() => undefined);
    return turn;
  }

  async function bytesOf(request: JobRequest): Promise<Uint8Array> {
    const reply = await ask(request);
    if (!reply.ok) throw new Error(reply.error);
    if (!("bytes" in reply)) throw new Error("The picture maker answered without a picture.");
    return reply.bytes;
  }

  return {
    async inspect(bytes) {
      try {
        const reply = await ask({ op: "inspect", bytes });
        if (!reply.ok) return { kind: "refused", problem: "unreadable", reason: reply.error };
        if (!("inspection" in reply)) {
          throw new Error("The picture maker answered without a reading.");
        }
        return reply.inspection;
      } catch (error) {
        // A picture that stops libvips is refused like any other it cannot read.
        return { kind: "refused", problem: "unreadable", reason: (error as Error).message };
      }
    },
    variant: (original, variant) => bytesOf({ op: "variant", bytes: original, variant }),
    crop: (original, crop) => bytesOf({ op: "crop", bytes: original, crop }),
    clean: (bytes) => bytesOf({ op: "clean", bytes }),
    async close() {
      await queue;
      if (current) await letGo(current);
    },
  };
}
