import type { Database } from "../db/client";
import type { LoadContext } from "../http/load-context";
import type { StaffMember } from "../staff/accounts";
import { recordAudit } from "../staff/audit";

/**
 * How the newsroom's actions run: each checks its input, changes the database and writes the
 * audit log in one transaction, then announces the change so every process's page and read caches
 * drop at once.
 */

export type NewsroomServices = Pick<LoadContext, "db" | "announceChange">;
export type Actor = Pick<StaffMember, "id" | "email">;
export type ActionResult = { ok: true; message: string } | { ok: false; error: string };
/**
 * What a change did: as an ActionResult, with the keys of the pages it changed
 * (shared/cache-keys.ts), purged from the caches in front of the site when it is announced.
 */
export type ChangeResult =
  { ok: true; message: string; purge?: readonly string[] } | { ok: false; error: string };

export const fail = (error: string): ActionResult => ({ ok: false, error });

/**
 * Writes the audit entry of a change made in `tx`, as `actor`'s, and answers that it is made:
 * `message` for staff, with the keys of the pages it changed (null: none to purge).
 */
export async function audited(
  tx: Database,
  actor: Actor,
  message: string,
  purge: readonly string[] | null,
  entry: Parameters<typeof recordAudit>[2],
): Promise<ChangeResult> {
  await recordAudit(tx, actor, entry);
  return purge === null ? { ok: true, message } : { ok: true, message, purge };
}

/**
 * Runs `change` (which says what it did, or why not) and announces it, with the keys it touched,
 * when it did something. Purging is queued, never awaited: it cannot hold up or fail the action.
 */
export async function act(
  services: NewsroomServices,
  change: (tx: Database) => Promise<ChangeResult>,
): Promise<ActionResult> {
  const result = await services.db.transaction((tx) => change(tx));
  if (!result.ok) return result;
  const { purge, ...answer } = result;
  await services.announceChange(purge ?? []);
  return answer;
}
