import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatStaffTime } from "../../shared/staff-time";
import { staff, staffAudit, staffSessions } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import {
  addStaff,
  changeRole,
  findStaff,
  isStaffRole,
  listStaff,
  removeStaff,
  StaffError,
  type StaffMember,
} from "../staff/accounts";
import { readAudit } from "../test-support/audit";
import { hashPassword, verifyPassword } from "../staff/passwords";
import { sessionFor, startSession } from "../staff/sessions";
import { auditSentence } from "./audit-log";
import {
  addAccount,
  changeAccountRole,
  removeAccount,
  resetAccountPassword,
} from "./staff-accounts";

reportSkippedPostgres();

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "another long password, new";

describe.each(testDatabases())("staff accounts in the newsroom on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let chief: StaffMember;
  let deputy: StaffMember;
  let editor: StaffMember;

  /** One hash for every account made here: argon2id is slow on purpose. */
  let passwordHash: string;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    passwordHash = await hashPassword(PASSWORD);
  }, 60_000);
  afterAll(() => handle?.dispose());

  /** Two admins and an editor, nothing else, and an empty log. */
  beforeEach(async () => {
    await handle.db.delete(staff);
    await handle.db.delete(staffAudit);
    const rows = await handle.db
      .insert(staff)
      .values([
        { email: "chief@example.org", role: "admin", passwordHash },
        { email: "deputy@example.org", role: "admin", passwordHash },
        { email: "desk@example.org", role: "editor", passwordHash },
      ])
      .returning({ id: staff.id, email: staff.email, role: staff.role });
    const member = (email: string) => {
      const row = rows.find((r) => r.email === email);
      if (!row || !isStaffRole(row.role)) throw new Error(`no ${email}`);
      return { id: row.id, email: row.email, role: row.role };
    };
    chief = member("chief@example.org");
    deputy = member("deputy@example.org");
    editor = member("desk@example.org");
  }, 30_000);

  const roles = async () =>
    Object.fromEntries((await listStaff(handle.db)).map((m) => [m.email, m.role]));
  const admins = async () => (await listStaff(handle.db)).filter((m) => m.role === "admin");
  /** The log oldest first, each entry with the sentence the audit page shows. */
  const audit = async () =>
    (await readAudit(handle.db)).reverse().map((e) => ({
      who: e.staffEmail,
      action: e.action,
      subject: e.subject,
      before: e.before,
      after: e.after,
      sentence: auditSentence({ ...e, who: e.staffEmail, storyTitle: null }, formatStaffTime),
    }));
  /** Neither a password nor any hash is ever in the log. */
  const expectNoSecretsLogged = async () => {
    const logged = JSON.stringify(await readAudit(handle.db));
    for (const secret of [PASSWORD, NEW_PASSWORD, "$argon2", "passwordHash", "password_hash"]) {
      expect(logged).not.toContain(secret);
    }
  };

  it("adds an account with the admin's password, audited without it", async () => {
    expect(
      await addAccount(handle.db, chief, {
        email: " New.Writer@Example.org ",
        role: "editor",
        password: PASSWORD,
      }),
    ).toEqual({ ok: true, message: "new.writer@example.org is added as an editor." });
    const added = await findStaff(handle.db, "new.writer@example.org");
    expect(added?.role).toBe("editor");
    expect(await verifyPassword(added?.passwordHash ?? null, PASSWORD)).toBe(true);
    expect(await audit()).toEqual([
      {
        who: chief.email,
        action: "staff.add",
        subject: "staff:new.writer@example.org",
        before: null,
        after: { email: "new.writer@example.org", role: "editor" },
        sentence: `${chief.email} added new.writer@example.org as an editor`,
      },
    ]);
    await expectNoSecretsLogged();
  });

  it("refuses a short password, a taken or malformed address, writing nothing", async () => {
    const tries = [
      [{ email: "a@example.org", role: "editor", password: "short" }, /at least 12 characters/],
      [{ email: "a@example.org", role: "editor", password: "x".repeat(257) }, /at most 256/],
      [{ email: "DESK@example.org", role: "admin", password: PASSWORD }, /already has an account/],
      [{ email: "not-an-address", role: "editor", password: PASSWORD }, /Not an e-mail address/],
    ] as const;
    for (const [input, error] of tries) {
      const result = await addAccount(handle.db, chief, input);
      expect(result.ok, input.email).toBe(false);
      expect(!result.ok && result.error).toMatch(error);
    }
    expect(Object.keys(await roles())).toHaveLength(3);
    expect(await audit()).toEqual([]);
  });

  it("changes a role both ways, audited with the role before and after", async () => {
    expect(await changeAccountRole(handle.db, chief, editor.id, "admin")).toEqual({
      ok: true,
      message: "desk@example.org is now an admin.",
    });
    expect(await changeAccountRole(handle.db, chief, editor.id, "admin")).toEqual({
      ok: false,
      error: "desk@example.org is already an admin.",
    });
    expect(await changeAccountRole(handle.db, chief, deputy.id, "editor")).toMatchObject({
      ok: true,
    });
    expect(await roles()).toEqual({
      "chief@example.org": "admin",
      "deputy@example.org": "editor",
      "desk@example.org": "admin",
    });
    expect(
      (await audit()).map(({ action, subject, before, after, sentence }) => ({
        action,
        subject,
        before,
        after,
        sentence,
      })),
    ).toEqual([
      {
        action: "staff.role",
        subject: "staff:desk@example.org",
        before: { role: "editor" },
        after: { role: "admin" },
        sentence: `${chief.email} made desk@example.org an admin (was an editor)`,
      },
      {
        action: "staff.role",
        subject: "staff:deputy@example.org",
        before: { role: "admin" },
        after: { role: "editor" },
        sentence: `${chief.email} made deputy@example.org an editor (was an admin)`,
      },
    ]);
    expect(await changeAccountRole(handle.db, chief, 99_999, "admin")).toEqual({
      ok: false,
      error: "There is no such account: it may have been removed.",
    });
  });

  it("never lets an admin give up their own admin role or remove themself", async () => {
    expect(await changeAccountRole(handle.db, chief, chief.id, "editor")).toEqual({
      ok: false,
      error: "You cannot take away your own admin role: another admin can do it.",
    });
    expect(await removeAccount(handle.db, chief, chief.id)).toEqual({
      ok: false,
      error: "You cannot remove your own account: another admin can do it.",
    });
    expect((await roles())["chief@example.org"]).toBe("admin");
    expect(await audit()).toEqual([]);
  });

  it("acts only for a member who is an admin when the change is made", async () => {
    // The deputy was made an editor after opening the page: their next post changes nothing.
    await changeAccountRole(handle.db, chief, deputy.id, "editor");
    const refused = "Your account is no longer an admin's, so nothing was changed.";
    expect(await changeAccountRole(handle.db, deputy, editor.id, "admin")).toEqual({
      ok: false,
      error: refused,
    });
    expect(await removeAccount(handle.db, deputy, editor.id)).toEqual({
      ok: false,
      error: refused,
    });
    expect(await resetAccountPassword(handle.db, deputy, editor.id, NEW_PASSWORD)).toEqual({
      ok: false,
      error: refused,
    });
    expect(
      await addAccount(handle.db, deputy, {
        email: "x@example.org",
        role: "admin",
        password: PASSWORD,
      }),
    ).toEqual({ ok: false, error: refused });
    expect((await audit()).map((e) => e.who)).toEqual([chief.email]);
  });

  it("resets a password: the new one signs in, the old does not, every session ends", async () => {
    const sessions = [
      await startSession(handle.db, editor.id, new Date()),
      await startSession(handle.db, editor.id, new Date()),
    ];
    const chiefs = await startSession(handle.db, chief.id, new Date());
    expect(await resetAccountPassword(handle.db, chief, editor.id, "too short")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/at least 12 characters/),
    });
    expect(await resetAccountPassword(handle.db, chief, editor.id, NEW_PASSWORD)).toEqual({
      ok: true,
      message: "desk@example.org has a new password; their sessions ended.",
    });
    const stored = await findStaff(handle.db, editor.id);
    expect(await verifyPassword(stored?.passwordHash ?? null, NEW_PASSWORD)).toBe(true);
    expect(await verifyPassword(stored?.passwordHash ?? null, PASSWORD)).toBe(false);
    for (const token of sessions) expect(await sessionFor(handle.db, token, new Date())).toBeNull();
    // Only the member's: the admin who reset it is still signed in.
    expect(await sessionFor(handle.db, chiefs, new Date())).not.toBeNull();
    expect(await audit()).toEqual([
      {
        who: chief.email,
        action: "staff.password-reset",
        subject: "staff:desk@example.org",
        before: null,
        after: { sessionsEnded: 2 },
        sentence: `${chief.email} reset the password of desk@example.org, ending 2 sessions`,
      },
    ]);
    await expectNoSecretsLogged();
  });

  it("removes an account and its sessions, keeping who it was in the log", async () => {
    const token = await startSession(handle.db, editor.id, new Date());
    expect(await removeAccount(handle.db, chief, editor.id)).toEqual({
      ok: true,
      message: "desk@example.org's account is removed; their sessions ended.",
    });
    expect(await sessionFor(handle.db, token, new Date())).toBeNull();
    expect(await findStaff(handle.db, editor.id)).toBeNull();
    expect(
      await handle.db.select().from(staffSessions).where(eq(staffSessions.staffId, editor.id)),
    ).toEqual([]);
    expect(await removeAccount(handle.db, chief, editor.id)).toEqual({
      ok: false,
      error: "There is no such account: it may have been removed already.",
    });
    const [entry] = await audit();
    expect(entry).toMatchObject({
      who: chief.email,
      action: "staff.remove",
      subject: "staff:desk@example.org",
      before: { email: "desk@example.org", role: "editor", since: expect.any(String) },
      after: { sessionsEnded: 1 },
      sentence: `${chief.email} removed the account of desk@example.org, an editor`,
    });
    expect(await audit()).toHaveLength(1);
  });

  it("never demotes or removes the last admin, from the command line either", async () => {
    await removeStaff(handle.db, deputy.email);
    await expect(changeRole(handle.db, chief.email, "editor")).rejects.toThrow(
      new StaffError(
        "chief@example.org is the last admin and stays one: make another member an admin first.",
      ),
    );
    await expect(removeStaff(handle.db, chief.email)).rejects.toThrow(
      new StaffError(
        "chief@example.org is the last admin and cannot be removed: make another member an admin first.",
      ),
    );
    expect(await admins()).toHaveLength(1);
    // Another admin first, then the first may go.
    await changeRole(handle.db, editor.email, "admin");
    expect(await removeStaff(handle.db, chief.email)).toBe(true);
    expect((await admins()).map((m) => m.email)).toEqual([editor.email]);
  });

  it("keeps an admin when two admins demote or remove each other at the same moment", async () => {
    for (let round = 0; round < 6; round++) {
      // Only the two admins; each acts on the other at once, in every pairing of actions.
      const [a, b] = (await admins()).map((m) => ({ id: m.id, email: m.email }));
      if (!a || !b) throw new Error("two admins expected");
      const act = (actor: typeof a, other: typeof a, kind: number) =>
        kind === 0
          ? changeAccountRole(handle.db, actor, other.id, "editor")
          : removeAccount(handle.db, actor, other.id);
      const results = await Promise.all([act(a, b, round % 2), act(b, a, (round >> 1) % 2)]);
      expect(
        results.filter((r) => r.ok),
        `round ${round}`,
      ).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toEqual({
        ok: false,
        error: "Your account is no longer an admin's, so nothing was changed.",
      });
      expect(await admins(), `round ${round}`).toHaveLength(1);
      // Back to two admins for the next round.
      const left = await listStaff(handle.db);
      const other = left.find((m) => m.role !== "admin" && m.email !== editor.email);
      if (other) await changeRole(handle.db, other.email, "admin");
      else {
        await addStaff(handle.db, {
          email: `admin-${round}@example.org`,
          role: "admin",
          password: PASSWORD,
        });
      }
    }
  });

  it("keeps an admin when the command line demotes both at once", async () => {
    for (let round = 0; round < 6; round++) {
      const outcomes = await Promise.allSettled([
        changeRole(handle.db, chief.email, "editor"),
        changeRole(handle.db, deputy.email, "editor"),
      ]);
      expect(
        outcomes.filter((o) => o.status === "fulfilled"),
        `round ${round}`,
      ).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === "rejected");
      expect(refused?.status === "rejected" && refused.reason).toBeInstanceOf(StaffError);
      expect(await admins()).toHaveLength(1);
      const demoted = (await roles())["chief@example.org"] === "editor" ? chief : deputy;
      await changeRole(handle.db, demoted.email, "admin");
    }
  });
});
