/**
 * What every form endpoint does before it reads a form: a per-address rate limit and a honeypot.
 */

import ipaddr from "ipaddr.js";
import { HONEYPOT_FIELD } from "../../shared/form-fields";
import { memoryRateLimits, type RateLimits, type RateVerdict } from "../lib/rate-limit";

export const RATE_LIMITED_MESSAGE =
  "Too many submissions from your connection. Please wait a few minutes and try again.";

/**
 * Counts form submissions per key: in memory on the embedded database (one process); in the
 * database on PostgreSQL, which several processes and machines may share, so that an address has
 * one allowance whichever of them answers it (server/http/web-server.ts).
 */
export interface FormLimiter {
  hit(key: string): Promise<RateVerdict>;
}

/** `limit` submissions per form and address in 10 minutes (FORM_RATE_LIMIT, default 10). */
export function formLimiter(limit: number, limits: RateLimits = memoryRateLimits()): FormLimiter {
  return { hit: (key) => limits.hit([{ key, limit, windowMs: 10 * 60_000 }]) };
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
