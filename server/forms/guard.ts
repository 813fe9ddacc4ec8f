/**
 * What every form endpoint does before it reads a form: a per-address rate limit and a honeypot.
 */

import ipaddr from "ipaddr.js";
import { HONEYPOT_FIELD } from "../../shared/form-fields";

export const RATE_LIMITED_MESSAGE =
  "Too many submissions from your connection. Please wait a few minutes and try again.";

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts form submissions per key. On the embedded database (one process) the count is in memory
 * (RateLimiter); on PostgreSQL, which several processes and machines may share, it is in the
 * database (`databaseFormLimiter` in server/forms/shared-limiter.ts), so that an address has one
 * allowance whichever of them answers it.
 */
export interface FormLimiter {
  hit(key: string): RateVerdict | Promise<RateVerdict>;
}

/** Counts requests per key in a sliding window, in memory. */
export class RateLimiter implements FormLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Keys remembered at most; the oldest are forgotten first, so memory stays bounded. */
    private readonly maxKeys = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a request; `allowed` is false once the key has used its window's allowance. */
  hit(key: string): RateVerdict {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      const oldest = recent[0] ?? now;
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      };
    }
    recent.push(now);
    // Re-inserting keeps the map in order of last use, so the first key is the stalest.
    this.hits.delete(key);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) {
      const stalest = this.hits.keys().next().value;
      if (stalest !== undefined) this.hits.delete(stalest);
    }
    return { allowed: true };
  }
}

/** `limit` submissions per form and address in 10 minutes (FORM_RATE_LIMIT, default 10). */
export function formLimiter(limit: number): RateLimiter {
  return new RateLimiter(limit, 10 * 60_000);
}

export type GuardVerdict =
  | { kind: "ok" }
  /** A honeypot was filled: answer as if it worked, store nothing. */
  | { kind: "bot" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * Who a limit counts: an IPv4 address, or the /64 network of an IPv6 one (one home or phone is
 * given a whole /64 and may send from any address in it). An IPv4 address written as IPv6 counts as
 * itself.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}

/** Rate limit first (every attempt counts, a bot's too), then the honeypot. */
export async function guardForm(
  form: FormData,
  limiter: FormLimiter,
  formName: string,
  clientAddress: string,
): Promise<GuardVerdict> {
  const verdict = await limiter.hit(`${formName}:${clientNetwork(clientAddress)}`);
  if (!verdict.allowed)
    return { kind: "rate-limited", retryAfterSeconds: verdict.retryAfterSeconds };
  const honey = form.get(HONEYPOT_FIELD);
  if (typeof honey === "string" && honey.trim() !== "") return { kind: "bot" };
  return { kind: "ok" };
}
