import { desc } from "drizzle-orm";
import type { Database } from "../db/client";
import { staffAudit } from "../db/schema";

/**
 * The newest audit entries as stored, every column, for tests. The newsroom reads the log through
 * `auditPage` (server/staff/audit.ts), filtered and paged.
 */
export async function readAudit(db: Database, limit = 200) {
  return db.select().from(staffAudit).orderBy(desc(staffAudit.id)).limit(limit);
}
