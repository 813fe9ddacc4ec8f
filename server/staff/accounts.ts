import { asc, eq } from "drizzle-orm";
import { lockForTransaction, type Database } from "../db/client";
import { staff, staffSessions } from "../db/schema";
import { normaliseEmail } from "../forms/repository";
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

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);

/** An account named by its id (the newsroom's forms) or its e-mail (the command line). */
export type AccountKey = number | string;

const whereAccount = (key: AccountKey) =>
  typeof key === "number" ? eq(staff.id, key) : eq(staff.email, normaliseEmail(key));

const named = (key: AccountKey) =>
  typeof key === "number"
    ? "There is no such account: it may have been removed."
    : `No account for ${normaliseEmail(key)}.`;

function member(row: typeof staff.$inferSelect): StaffMember {
  return { id: row.id, email: row.email, role: isStaffRole(row.role) ? row.role : "editor" };
}

/**
 * The first key of the advisory lock every change that can take an admin away (a role changed, an
 * account removed) holds until its transaction ends: two such changes never both count the admins
 * before either has written, so two admins demoting each other at once cannot leave none.
 */
const ADMINS_LOCK_CLASS = 7_302_117;

/** Takes the admins' lock for the rest of the transaction `tx` (taking it again is harmless). */
export function lockAdmins(tx: Pick<Database, "execute">): Promise<void> {
  return lockForTransaction(tx, ADMINS_LOCK_CLASS, "admins");
}

async function adminCount(db: Database): Promise<number> {
  return db.$count(staff, eq(staff.role, "admin"));
}

export async function addStaff(
  db: Database,
  input: { email: string; role: StaffRole; password: string },
): Promise<StaffMember> {
  const email = normaliseEmail(input.email);
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
  key: AccountKey,
): Promise<(StaffMember & { passwordHash: string; createdAt: Date }) | null> {
  if (typeof key === "number" && !Number.isInteger(key)) return null;
  const [row] = await db.select().from(staff).where(whereAccount(key));
  return row ? { ...member(row), passwordHash: row.passwordHash, createdAt: row.createdAt } : null;
}

/**
 * Gives an account another role. The last admin is never made an editor, checked under the admins'
 * lock (so on PostgreSQL across processes too). Answers the account with the role it had.
 */
export function changeRole(
  db: Database,
  key: AccountKey,
  role: StaffRole,
): Promise<{ member: StaffMember; before: StaffRole }> {
  return db.transaction(async (tx) => {
    await lockAdmins(tx);
    const found = await findStaff(tx, key);
    if (!found) throw new StaffError(named(key));
    if (found.role === role) throw new StaffError(`${found.email} is already an ${role}.`);
    if (found.role === "admin" && (await adminCount(tx)) <= 1) {
      throw new StaffError(
        `${found.email} is the last admin and stays one: make another member an admin first.`,
      );
    }
    await tx.update(staff).set({ role }).where(eq(staff.id, found.id));
    return { member: { id: found.id, email: found.email, role }, before: found.role };
  });
}

/**
 * Removes an account; its sessions end with it (the foreign key cascades). The last admin is never
 * removed, checked under the admins' lock. False when there was no such account.
 */
export function removeStaff(db: Database, key: AccountKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockAdmins(tx);
    const found = await findStaff(tx, key);
    if (!found) return false;
    if (found.role === "admin" && (await adminCount(tx)) <= 1) {
      throw new StaffError(
        `${found.email} is the last admin and cannot be removed: make another member an admin first.`,
      );
    }
    await tx.delete(staff).where(eq(staff.id, found.id));
    return true;
  });
}

/**
 * Sets a new password and ends every session of the account (the hash is made before the
 * transaction: it is slow on purpose). Answers the account and how many sessions ended.
 */
export async function resetPassword(
  db: Database,
  key: AccountKey,
  password: string,
): Promise<{ member: StaffMember; sessionsEnded: number }> {
  const problem = passwordProblem(password);
  if (problem) throw new StaffError(problem);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx.update(staff).set({ passwordHash }).where(whereAccount(key)).returning();
    if (!row) throw new StaffError(named(key));
    const ended = await tx
      .delete(staffSessions)
      .where(eq(staffSessions.staffId, row.id))
      .returning({ staffId: staffSessions.staffId });
    return { member: member(row), sessionsEnded: ended.length };
  });
}
