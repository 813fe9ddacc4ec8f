/**
 * What every fetch of another site shares (feeds in ingest/fetch.ts, their pictures in
 * images/fetch.ts): the limits, a readable reason when the network fails, the capped body.
 */

export const DEFAULT_FETCH_OPTIONS = {
  timeoutMs: 15_000,
  maxRedirects: 5,
  maxBytes: 10 * 1024 * 1024,
} as const;

/** A failed `fetch` as undici throws it: what went wrong on the connection is its cause. */
export type FetchError = Error & { cause?: { code?: string; message?: string } };

/** A readable reason for a network failure, from undici's error and its cause. */
export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const err = error as FetchError;
  if (err.name === "TimeoutError" || err.name === "AbortError") {
    return `Timed out after ${timeoutMs / 1000} s`;
  }
  const code = err.cause?.code;
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `DNS lookup failed (${code})`;
    case "ECONNREFUSED":
      return "Connection refused";
    case "ECONNRESET":
      return "Connection reset by the server";
    case "UND_ERR_SOCKET":
      return "The server closed the connection";
    default:
      return code
        ? `Network error (${code})`
        : `Network error: ${err.cause?.message ?? err.message}`;
  }
}

/**
 * A body read whole, or undefined as soon as it passes `maxBytes` (with `cut`, its first `maxBytes`
 * then). Leaving the loop early closes it (cancels a fetch's stream, destroys a Node response), so
 * no more of it comes down.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number,
  past: "refuse" | "cut" = "refuse",
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      if (past === "refuse") return undefined;
      chunks.push(chunk);
      return Buffer.concat(chunks).subarray(0, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Retry-After, in seconds: either seconds or an HTTP date (null when it is neither). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - now) / 1000));
}
