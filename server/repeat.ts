/** A task that runs again and again in the web process, until stopped. */
export interface Repeating {
  /** Aborts the task's signal, cancels the next run and waits for the run under way, if any. */
  stop(): Promise<void>;
}

/**
 * Runs `task` at once, then again `nextDelayMs()` after each run has ended (never two at a time),
 * until `stop()`. The task receives the signal that `stop()` aborts, and reports its own errors:
 * one that escapes is passed to `onError`, and the next run is scheduled all the same. The timer
 * does not keep the process alive.
 */
export function repeatEvery(
  task: (signal: AbortSignal) => Promise<void>,
  nextDelayMs: () => number,
  onError: (error: unknown) => void,
): Repeating {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    if (controller.signal.aborted) return;
    timer = setTimeout(() => {
      running = task(controller.signal)
        .catch(onError)
        .finally(() => {
          running = undefined;
          schedule(nextDelayMs());
        });
    }, delayMs);
    timer.unref();
  };
  schedule(0);

  return {
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
