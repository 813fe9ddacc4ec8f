import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { staffSessions } from "../db/schema";
import {
  addStaff,
  changeRole,
  findStaff,
  lockAdmins,
  removeStaff,
  resetPassword,
  StaffError,
  type StaffRole,
} from "../staff/accounts";
import { passwordProblem } from "../staff/passwords";
import { audited, fail, type ActionResult, type Actor } from "./action";

/**
 * Admins manage the staff's accounts in the newsroom (/newsroom/staff): add one, change a role,
 * reset a password, remove one. The work is `server/staff/accounts.ts`'s, shared with `news staff`;
 * here each change also checks who asks and writes its audit row in the same transaction. No
 * password or hash ever reaches the log. None is announced: no public page or cache shows an account.
 */

/** What an account's audit rows are about: its e-mail, kept when the account goes. */
const subject = (email: string) => `staff:${email}`;

/**
 * Runs an account change in one transaction if the member acting is (still) an admin, read inside
 * the transaction: an admin made an editor a moment ago by another admin cannot act on a page they
 * opened before. A refusal of `server/staff/accounts.ts` becomes the page's error.
 */
function asAdmin(
  db: Database,
  actor: Actor,
  lockFirst: boolean,
  change: (tx: Database) => Promise<ActionResult>,
): Promise<ActionResult> {
  return db.transaction(async (tx) => {
    // Before anything is read: the actor's own role and the count of admins are read under it.
    if (lockFirst) await lockAdmins(tx);
    const me = await findStaff(tx, actor.id);
    if (me?.role !== "admin") {
      return fail("Your account is no longer an admin's, so nothing was changed.");
    }
    try {
      return await change(tx);
    } catch (error) {
      if (error instanceof StaffError) return fail(error.message);
      throw error;
    }
  });
}

/** Adds an account with the password the admin chose (to be changed by a reset later). */
export function addAccount(
  db: Database,
  actor: Actor,
  input: { email: string; role: StaffRole; password: string },
): Promise<ActionResult> {
  const problem = passwordProblem(input.password);
  if (problem) return Promise.resolve(fail(problem));
  return asAdmin(db, actor, false, async (tx) => {
    const added = await addStaff(tx, input);
    return audited(tx, actor, `${added.email} is added as an ${added.role}.`, null, {
      action: "staff.add",
      subject: subject(added.email),
      before: null,
      after: { email: added.email, role: added.role },
    });
  });
}

/** Gives a member another role; an admin never demotes themself, and the last admin stays one. */
export function changeAccountRole(
  db: Database,
  actor: Actor,
  memberId: number,
  role: StaffRole,
): Promise<ActionResult> {
  if (memberId === actor.id && role !== "admin") {
    return Promise.resolve(
      fail("You cannot take away your own admin role: another admin can do it."),
    );
  }
  return asAdmin(db, actor, true, async (tx) => {
    const changed = await changeRole(tx, memberId, role);
    return audited(tx, actor, `${changed.member.email} is now an ${role}.`, null, {
      action: "staff.role",
      subject: subject(changed.member.email),
      before: { role: changed.before },
      after: { role },
    });
  });
}

/** Sets a member's password and ends all their sessions (the admin's own too, if it is theirs). */
export function resetAccountPassword(
  db: Database,
  actor: Actor,
  memberId: number,
  password: string,
): Promise<ActionResult> {
  const problem = passwordProblem(password);
  if (problem) return Promise.resolve(fail(problem));
  return asAdmin(db, actor, false, async (tx) => {
    const reset = await resetPassword(tx, memberId, password);
    const message = `${reset.member.email} has a new password; their sessions ended.`;
    return audited(tx, actor, message, null, {
      action: "staff.password-reset",
      subject: subject(reset.member.email),
      before: null,
      after: { sessionsEnded: reset.sessionsEnded },
    });
  });
}

/** Removes a member's account and ends its sessions; never the admin's own, never the last admin. */
export function removeAccount(db: Database, actor: Actor, memberId: number): Promise<ActionResult> {
  if (memberId === actor.id) {
    return Promise.resolve(fail("You cannot remove your own account: another admin can do it."));
  }
  return asAdmin(db, actor, true, async (tx) => {
    const member = await findStaff(tx, memberId);
    if (!member) return fail("There is no such account: it may have been removed already.");
    const sessions = await tx.$count(staffSessions, eq(staffSessions.staffId, member.id));
    await removeStaff(tx, member.id);
    const { email, role, createdAt } = member;
    return audited(tx, actor, `${email}'s account is removed; their sessions ended.`, null, {
      action: "staff.remove",
      subject: subject(email),
      before: { email, role, since: createdAt.toISOString() },
      after: { sessionsEnded: sessions },
    });
  });
}
