import { desc } from "drizzle-orm";
import type { Database } from "../db/client";
import { staffAudit } from "../db/schema";
import type { StaffMember } from "./accounts";

/**
 * The newsroom's audit log: one row per staff action, written in the same transaction as the
 * action where it has one. Nothing in the newsroom changes or removes a row.
 */
export async function recordAudit(
  db: Database,
  actor: Pick<StaffMember, "id" | "email">,
  entry: { action: string; subject?: string | null; before?: unknown; after?: unknown },
): Promise<void> {
  await db.insert(staffAudit).values({
    staffId: actor.id,
    staffEmail: actor.email,
    action: entry.action,
    subject: entry.subject ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export async function readAudit(db: Database, limit = 200) {
  return db.select().from(staffAudit).orderBy(desc(staffAudit.id)).limit(limit);
}
