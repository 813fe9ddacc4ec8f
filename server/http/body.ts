import type http from "node:http";
import getRawBody from "raw-body";

/** What a reader is told when what they sent is over the route's limit. */
const TOO_LARGE_MESSAGE = "What was sent is too large for this form.";

/**
 * A request's body, read whole but never past `maxBytes`, whatever its headers say: a declared
 * length over the limit is refused before a byte is read, and a body sent without one (chunked)
 * is counted as it arrives and dropped at the limit. `"too large"` then, `"unreadable"` when the
 * client went away mid-body or sent less than it declared.
 */
export async function readBody(
  req: http.IncomingMessage,
  maxBytes: number,
): Promise<Buffer | "too large" | "unreadable"> {
  try {
    return await getRawBody(req, { limit: maxBytes, length: req.headers["content-length"] });
  } catch (error) {
    return isTooLarge(error) ? "too large" : "unreadable";
  }
}

function isTooLarge(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "type" in error &&
    error.type === "entity.too.large"
  );
}

/**
 * Answers a body that was refused, and closes the connection: the rest of it, which may be large,
 * is neither read nor waited for.
 */
export function refuseBody(
  res: http.ServerResponse,
  outcome: "too large" | "unreadable",
  message = TOO_LARGE_MESSAGE,
): void {
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Connection", "close");
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.statusCode = outcome === "too large" ? 413 : 400;
  res.end(outcome === "too large" ? message : "What was sent could not be read.");
}
