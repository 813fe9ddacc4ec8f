import { createHmac } from "node:crypto";
import { sameText } from "../lib/tokens";

/**
 * A form's signed time: when the page with the form was rendered, signed with the site's secret, so
 * that a post can say how long after that it came. People take seconds to fill in a form and send
 * it the same day; scanners post at once, or replay one form for hours.
 */

/** Sooner than this after the form was shown, nobody has typed a message. */
export const FASTEST_HUMAN_MS = 3_000;
/** Later than this, the form was kept or copied rather than filled in. */
export const OLDEST_FORM_MS = 24 * 60 * 60_000;

const sign = (secret: Buffer, issuedAt: number) =>
  createHmac("sha256", secret).update(`form:${issuedAt}`).digest("base64url");

export function issueFormToken(secret: Buffer, now = Date.now()): string {
  return `${now}.${sign(secret, now)}`;
}

/**
 * Why a post looks automated, or null when its token is sound and its timing human (sent at least
 * `fastestMs` after the form was shown: a message takes seconds to type, a poll's click does not).
 */
export function formTokenDoubt(
  secret: Buffer,
  token: string | undefined,
  now = Date.now(),
  fastestMs = FASTEST_HUMAN_MS,
): string | null {
  const match = /^(\d{1,15})\.([\w-]{43})$/.exec(token ?? "");
  const issuedAt = Number(match?.[1]);
  if (!match || !sameText(match[2] ?? "", sign(secret, issuedAt))) {
    return "no valid form token";
  }
  const age = now - issuedAt;
  if (age < fastestMs) return `sent ${Math.max(0, age)} ms after the form was shown`;
  if (age > OLDEST_FORM_MS) return "sent more than a day after the form was shown";
  return null;
}

/** More links than a reader's message to a newsroom carries. */
export const MOST_LINKS = 3;

export function linkCount(text: string): number {
  return text.match(/\bhttps?:\/\/|\bwww\./gi)?.length ?? 0;
}
