import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { articles, staffAudit } from "../db/schema";

/**
 * The newsroom's audit log: one row per staff action, written in the same transaction as the
 * action where it has one. Nothing in the newsroom changes or removes a row (migration 0010 once
 * stripped readers' words from deletions written before).
 */
export async function recordAudit(
  db: Database,
  actor: { id: number | null; email: string },
  entry: { action: string; subject?: string | null; before?: unknown; after?: unknown; at?: Date },
): Promise<void> {
  await db.insert(staffAudit).values({
    staffId: actor.id,
    staffEmail: actor.email,
    action: entry.action,
    subject: entry.subject ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: entry.at,
  });
}

const AUDIT_PAGE_SIZE = 50;

export interface AuditEntry {
  id: number;
  at: Date;
  who: string;
  action: string;
  subject: string | null;
  before: unknown;
  after: unknown;
  /** The headline of the story the entry is about, while the story is stored. */
  storyTitle: string | null;
}

export interface AuditFilter {
  /** One member's entries (by the e-mail kept on each), or everyone's. */
  who: string | null;
  /** Entries of these actions only, or of every action. */
  actions: readonly string[] | null;
  page: number;
}

/** A page of the log, newest first, with how many entries the filter matches and how many pages. */
export async function auditPage(
  db: Database,
  filter: AuditFilter,
  size = AUDIT_PAGE_SIZE,
): Promise<{ entries: AuditEntry[]; total: number; page: number; pages: number }> {
  const where = and(
    filter.who === null ? undefined : eq(staffAudit.staffEmail, filter.who),
    filter.actions === null
      ? undefined
      : filter.actions.length === 0
        ? sql`false`
        : inArray(staffAudit.action, [...filter.actions]),
  );
  const total = await db.$count(staffAudit, where);
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Number.isInteger(filter.page) ? Math.min(Math.max(filter.page, 1), pages) : 1;
  const entries = await db
    .select({
      id: staffAudit.id,
      at: staffAudit.createdAt,
      who: staffAudit.staffEmail,
      action: staffAudit.action,
      subject: staffAudit.subject,
      before: staffAudit.before,
      after: staffAudit.after,
      storyTitle: articles.title,
    })
    .from(staffAudit)
    .leftJoin(articles, eq(articles.id, staffAudit.subject))
    .where(where)
    .orderBy(desc(staffAudit.createdAt), desc(staffAudit.id))
    .limit(size)
    .offset((page - 1) * size);
  return { entries, total, page, pages };
}

/** Everyone who has an entry in the log, by e-mail (members since removed included). */
export async function auditAuthors(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ who: staffAudit.staffEmail })
    .from(staffAudit)
    .orderBy(asc(staffAudit.staffEmail));
  return rows.map((r) => r.who);
}
