import type { Logger } from "../logger";
import { parseRetryAfter, readCapped } from "../lib/fetch";

/**
 * Purging the caches in front of the site by key (decision 009): each change names the keys it
 * touched (shared/cache-keys.ts) and the configured purger tells the CDN or Varnish. A purge never
 * holds up nor fails the change: it is queued here, sent in the background in batches, retried
 * with a growing wait when the provider fails or is busy, and given up after a few tries, logged
 * and counted (the page then leaves the CDN at the end of its CDN lifetime, a minute).
 */

/** What one purge request to a provider may answer. */
export class PurgeError extends Error {
  constructor(
    message: string,
    /** Worth trying again (a 5xx, a 429, no connection); a 4xx says the request itself is wrong. */
    readonly retryable: boolean,
    /** How long the provider asked us to wait (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "PurgeError";
  }
}

/** One CDN's purge-by-key API. */
export interface PurgeProvider {
  readonly name: string;
  /** The most keys one request may name. */
  readonly batchSize: number;
  /** Purges `keys` (at most `batchSize`), or throws a PurgeError. */
  send(keys: readonly string[]): Promise<void>;
}

export interface Purger {
  /** Queues a purge of `keys`: returns at once, whatever happens to it. */
  purge(keys: readonly string[]): void;
  /** Settles when every purge queued so far has been sent or given up (tests, a CLI's exit). */
  idle(): Promise<void>;
}

/** No cache in front (PURGER=none): the in-process page cache is emptied by the change notice alone. */
export const noPurger: Purger = {
  purge: () => undefined,
  idle: () => Promise.resolve(),
};

export type PurgeOutcome = "ok" | "retry" | "failed";

export interface PurgeQueueOptions {
  logger: Logger;
  /** Told of every request's outcome: `ok`, `retry` (failed, tried again), `failed` (given up). */
  observe?: (provider: string, outcome: PurgeOutcome, keys: number) => void;
  /** Tries per batch, the first included. */
  attempts?: number;
  /** The wait before the first retry, doubled for each further one (at most a minute). */
  firstRetryMs?: number;
  /**
   * The wait before a purge is sent: the other web processes are told of the change at the same
   * moment (NOTIFY), and empty their page caches within milliseconds; a CDN that asks again
   * before they did would get the old page and keep it. One second by default.
   */
  settleMs?: number;
  /** How a wait is waited (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

const MAX_RETRY_WAIT_MS = 60_000;

const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    // A purge waiting to be retried never keeps the process alive.
    setTimeout(resolve, ms).unref();
  });

/**
 * A purger sending to `provider` in the background: keys queued while a batch is out are sent
 * together next (each key once), `batchSize` at a time.
 */
export function purgeQueue(provider: PurgeProvider, options: PurgeQueueOptions): Purger {
  const attempts = options.attempts ?? 6;
  const firstRetryMs = options.firstRetryMs ?? 1_000;
  const settleMs = options.settleMs ?? 1_000;
  const sleep = options.sleep ?? wait;
  const observe = options.observe ?? (() => undefined);
  const pending = new Set<string>();
  let running: Promise<void> | null = null;

  const sendBatch = async (keys: string[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await provider.send(keys);
        observe(provider.name, "ok", keys.length);
        return;
      } catch (error) {
        const failure =
          error instanceof PurgeError ? error : new PurgeError(String(error), true, undefined);
        const last = attempt >= attempts || !failure.retryable;
        observe(provider.name, last ? "failed" : "retry", keys.length);
        // The error says what the provider answered, never the token sent to it.
        const context = {
          purger: provider.name,
          keys: keys.length,
          attempt,
          error: failure.message,
        };
        if (last) {
          options.logger.error(
            context,
            "cache purge failed: pages stay cached to their CDN lifetime",
          );
          return;
        }
        const backoff = Math.min(firstRetryMs * 2 ** (attempt - 1), MAX_RETRY_WAIT_MS);
        const delay = Math.min(Math.max(backoff, failure.retryAfterMs ?? 0), MAX_RETRY_WAIT_MS);
        options.logger.warn({ ...context, retryInMs: delay }, "cache purge failed, trying again");
        await sleep(delay);
      }
    }
  };

  const drain = async () => {
    if (settleMs > 0) await sleep(settleMs);
    while (pending.size > 0) {
      const keys = [...pending].slice(0, provider.batchSize);
      keys.forEach((key) => pending.delete(key));
      await sendBatch(keys);
    }
    running = null;
  };

  return {
    purge(keys) {
      if (keys.length === 0) return;
      keys.forEach((key) => pending.add(key));
      running ??= drain();
    },
    async idle() {
      while (running) await running;
    },
  };
}

/**
 * Sends one purge request to `provider` (its name in messages), within PURGE_TIMEOUT_MS: a request
 * that got no answer (refused, reset, timed out) throws a PurgeError worth retrying, an answer that
 * is not a success one that says what the provider answered.
 */
export async function purgeRequest(
  provider: string,
  url: string,
  init: RequestInit,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(PURGE_TIMEOUT_MS) });
  } catch (error) {
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new PurgeError(`${provider} could not be reached: ${message}`, true);
  }
  if (response.ok) return response;
  // The start of the body: a provider's long (or endless) error page is never read whole.
  const start = await readCapped(response.body ?? [], ERROR_BODY_BYTES, "cut").catch(() => null);
  const text = Buffer.from(start ?? [])
    .toString("utf8")
    .slice(0, 200)
    .replace(/\s+/g, " ");
  const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
  throw new PurgeError(
    `${provider} answered ${response.status}${text ? `: ${text}` : ""}`,
    response.status === 429 || response.status >= 500,
    retryAfter ? retryAfter * 1000 : undefined,
  );
}

/** Enough bytes for the 200 characters a message keeps of an error answer. */
const ERROR_BODY_BYTES = 1024;

/** How long one purge request may take. */
const PURGE_TIMEOUT_MS = 10_000;
