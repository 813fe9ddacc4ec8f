import { afterEach, describe, expect, it, vi } from "vitest";
import { repeatEvery } from "./repeat";

afterEach(() => {
  vi.useRealTimers();
});

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("repeatEvery", () => {
  it("runs at once, then again the chosen delay after each run ends", async () => {
    vi.useFakeTimers();
    const runs: number[] = [];
    const repeating = repeatEvery(
      async () => {
        runs.push(Date.now());
      },
      () => 1000,
      () => {},
    );
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs.map((t) => t - start)).toEqual([0]);
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(runs.map((t) => t - start)).toEqual([0, 1000, 2000, 3000]);
    await repeating.stop();
  });

  it("never runs twice at once: the delay counts from the end of a slow run", async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const repeating = repeatEvery(
      async () => {
        started.push(Date.now());
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5000));
        running -= 1;
      },
      () => 1000,
      () => {},
    );
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(13_000);
    expect(most).toBe(1);
    expect(started.map((t) => t - start)).toEqual([0, 6000, 12_000]);
    const stopped = repeating.stop();
    await vi.advanceTimersByTimeAsync(5000);
    await stopped;
    expect(started).toHaveLength(3);
  });

  it("stop aborts the task's signal, waits for the run under way and runs nothing after", async () => {
    const gate = deferred();
    const seen: AbortSignal[] = [];
    let finished = false;
    let runs = 0;
    const repeating = repeatEvery(
      async (signal) => {
        runs += 1;
        seen.push(signal);
        await gate.promise;
        finished = true;
      },
      () => 0,
      () => {},
    );
    await vi.waitFor(() => expect(runs).toBe(1));
    const stopped = repeating.stop();
    expect(seen[0]?.aborted).toBe(true);
    let stopReturned = false;
    void stopped.then(() => (stopReturned = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopReturned).toBe(false);
    gate.resolve();
    await stopped;
    expect(finished).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
  });

  it("hands an error that escapes the task to onError and keeps going", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const repeating = repeatEvery(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error("the first run broke");
      },
      () => 100,
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBe(3);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("the first run broke");
    await repeating.stop();
  });

  it("stop before the first run starts means it never starts", async () => {
    vi.useFakeTimers();
    let runs = 0;
    const repeating = repeatEvery(
      async () => {
        runs += 1;
      },
      () => 100,
      () => {},
    );
    await repeating.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(0);
  });
});
