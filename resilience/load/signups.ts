/** The load check's signups as its wrk script saw them, matched with the stored subscribers. */
import fs from "node:fs";

/** What the wrk script saw of the signups: per wrk thread what it sent, and every answer. */
export interface Signups {
  sent: Map<number, number>;
  answered: number;
  statuses: Map<number, number>;
  /** Ids (`prefix-thread-n`) whose answer was the 303 of a stored signup. */
  stored: Set<string>;
}

export function readSignups(file: string): Signups {
  const signups: Signups = { sent: new Map(), answered: 0, statuses: new Map(), stored: new Set() };
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const [kind, a = "", b = ""] = line.split(" ");
    if (kind === "sent") signups.sent.set(Number(a), Number(b));
    else if (kind === "answered") signups.answered += Number(b);
    else if (kind === "status")
      signups.statuses.set(Number(a), (signups.statuses.get(Number(a)) ?? 0) + Number(b));
    else if (kind === "ok") signups.stored.add(a);
  }
  return signups;
}

const totalSent = (signups: Signups) => [...signups.sent.values()].reduce((n, v) => n + v, 0);

/**
 * Every signup answered 303 must be stored. A stored one without an answer must be one wrk sent
 * and stopped waiting for at the end of its run (in flight), never more of them than were.
 */
export function compareSignups(signups: Signups, prefix: string, storedIds: Set<string>) {
  const missing = [...signups.stored].filter((id) => !storedIds.has(id));
  const unanswered = [...storedIds].filter(
    (id) => id.startsWith(`${prefix}-`) && !signups.stored.has(id),
  );
  const neverSent = unanswered.filter((id) => {
    const [, thread, n] = /^.+-(\d+)-(\d+)$/.exec(id) ?? [];
    return !(Number(n) >= 1 && Number(n) <= (signups.sent.get(Number(thread)) ?? 0));
  });
  const inFlight = totalSent(signups) - signups.answered;
  return {
    answered303: signups.stored.size,
    stored: signups.stored.size - missing.length + unanswered.length,
    missing,
    unanswered: unanswered.length,
    neverSent,
    inFlight,
    pass: missing.length === 0 && neverSent.length === 0 && unanswered.length <= inFlight,
  };
}
