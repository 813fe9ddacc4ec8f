import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { staff, staffSessions } from "../db/schema";
import { hashPassword, passwordProblem } from "./passwords";

export const STAFF_ROLES = ["editor", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export interface StaffMember {
  id: number;
  email: string;
  role: StaffRole;
}

export class StaffError extends Error {}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const isStaffRole = (value: string): value is StaffRole =>
  (STAFF_ROLES as readonly string[]).includes(value);

function member(row: typeof staff.$inferSelect): StaffMember {
  return { id: row.id, email: row.email, role: isStaffRole(row.role) ? row.role : "editor" };
}

export async function addStaff(
  db: Database,
  input: { email: string; role: StaffRole; password: string },
): Promise<StaffMember> {
  const email = normalEmail(input.email);
  if (!EMAIL.test(email)) throw new StaffError(`Not an e-mail address: ${input.email}`);
  const problem = passwordProblem(input.password);
  if (problem) throw new StaffError(problem);
  const [row] = await db
    .insert(staff)
    .values({ email, role: input.role, passwordHash: await hashPassword(input.password) })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new StaffError(`${email} already has an account.`);
  return member(row);
}

export async function listStaff(db: Database): Promise<(StaffMember & { createdAt: Date })[]> {
  const rows = await db.select().from(staff).orderBy(asc(staff.email));
  return rows.map((row) => ({ ...member(row), createdAt: row.createdAt }));
}

export async function findStaff(
  db: Database,
  email: string,
): Promise<(StaffMember & { passwordHash: string }) | null> {
  const [row] = await db
    .select()
    .from(staff)
    .where(eq(staff.email, normalEmail(email)));
  return row ? { ...member(row), passwordHash: row.passwordHash } : null;
}

/** Removes an account; its sessions end with it. */
export async function removeStaff(db: Database, email: string): Promise<boolean> {
  const removed = await db
    .delete(staff)
    .where(eq(staff.email, normalEmail(email)))
    .returning({ id: staff.id });
  return removed.length > 0;
}

/** Sets a new password and ends every session of the account. */
export async function resetPassword(db: Database, email: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new StaffError(problem);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(staff)
      .set({ passwordHash })
      .where(eq(staff.email, normalEmail(email)))
      .returning({ id: staff.id });
    if (!row) throw new StaffError(`No account for ${normalEmail(email)}.`);
    await tx.delete(staffSessions).where(eq(staffSessions.staffId, row.id));
  });
}
