import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formRateLimits, staff, staffAudit, staffSessions } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { addStaff, findStaff, listStaff, removeStaff, resetPassword, StaffError } from "./accounts";
import { readAudit } from "../test-support/audit";
import { verifyPassword } from "./passwords";
import {
  ABSOLUTE_TIMEOUT_MS,
  IDLE_TIMEOUT_MS,
  clearedSessionCookie,
  endSession,
  sessionCookie,
  sessionFor,
  sessionToken,
  startSession,
} from "./sessions";
import { afterSignIn, signIn, SIGN_IN_LOCKED, SIGN_IN_REFUSED } from "./sign-in";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT, WINDOW_MS } from "./throttle";

reportSkippedPostgres();

const PASSWORD = "correct horse battery staple";
const T0 = new Date("2026-11-20T12:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

describe.each(testDatabases())("staff accounts and sessions on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  });
  afterAll(() => handle.dispose());

  it("adds accounts with argon2id hashes, never the password, and refuses weak ones", async () => {
    const editor = await addStaff(handle.db, {
      email: " Editor@Example.org ",
      role: "editor",
      password: PASSWORD,
    });
    expect(editor).toMatchObject({ email: "editor@example.org", role: "editor" });
    await addStaff(handle.db, { email: "chief@example.org", role: "admin", password: PASSWORD });
    const [row] = await handle.db.select().from(staff).where(eq(staff.id, editor.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain(PASSWORD);
    expect(await verifyPassword(row?.passwordHash ?? null, PASSWORD)).toBe(true);
    expect(await verifyPassword(row?.passwordHash ?? null, `${PASSWORD}!`)).toBe(false);

    await expect(
      addStaff(handle.db, { email: "editor@example.org", role: "admin", password: PASSWORD }),
    ).rejects.toThrow(new StaffError("editor@example.org already has an account."));
    await expect(
      addStaff(handle.db, { email: "short@example.org", role: "editor", password: "short" }),
    ).rejects.toThrow(/at least 12 characters/);
    await expect(
      addStaff(handle.db, { email: "not-an-address", role: "editor", password: PASSWORD }),
    ).rejects.toThrow(/Not an e-mail address/);
    expect((await listStaff(handle.db)).map((m) => `${m.email} ${m.role}`)).toEqual([
      "chief@example.org admin",
      "editor@example.org editor",
    ]);
  });

  it("signs in with the same answer for an unknown e-mail and a wrong password", async () => {
    const unknown = await signIn(
      handle.db,
      { email: "nobody@example.org", password: PASSWORD, address: "10.0.0.1", previousToken: null },
      T0,
    );
    const wrong = await signIn(
      handle.db,
      {
        email: "editor@example.org",
        password: "wrong password!",
        address: "10.0.0.1",
        previousToken: null,
      },
      T0,
    );
    expect(unknown).toEqual({ kind: "refused", error: SIGN_IN_REFUSED, status: 401 });
    expect(wrong).toEqual(unknown);

    const ok = await signIn(
      handle.db,
      { email: "EDITOR@example.org", password: PASSWORD, address: "10.0.0.1", previousToken: null },
      T0,
    );
    expect(ok.kind).toBe("signed-in");
    if (ok.kind !== "signed-in") return;
    expect(ok.token).toMatch(/^[\w-]{43}$/);
    expect((await sessionFor(handle.db, ok.token, at(MINUTE)))?.member.email).toBe(
      "editor@example.org",
    );
    // The database holds a hash of the token, not the token.
    const sessions = await handle.db.select().from(staffSessions);
    expect(sessions.map((s) => s.tokenHash)).not.toContain(ok.token);
    expect((await readAudit(handle.db)).map((e) => e.action)).toContain("sign-in");
  });

  it("locks an account after five failures in 15 minutes, whoever tries, and lets it in later", async () => {
    const tries = (address: string, password: string, when: Date) =>
      signIn(
        handle.db,
        { email: "chief@example.org", password, address, previousToken: null },
        when,
      );
    for (let i = 0; i < ACCOUNT_LIMIT; i++) {
      expect((await tries(`10.1.0.${i}`, "guess number one", at(i * MINUTE))).kind).toBe("refused");
    }
    // Even the right password is refused while locked, and the answer does not tell which it was.
    expect(await tries("10.1.1.1", PASSWORD, at(6 * MINUTE))).toEqual({
      kind: "refused",
      error: SIGN_IN_LOCKED,
      status: 429,
    });
    // Once the first failures leave the window, the account may try again.
    expect((await tries("10.1.1.1", PASSWORD, at(WINDOW_MS + 5 * MINUTE))).kind).toBe("signed-in");
    // A success clears the account's count.
    expect((await tries("10.1.1.2", "guess number two", at(WINDOW_MS + 6 * MINUTE))).kind).toBe(
      "refused",
    );
    expect((await tries("10.1.1.2", PASSWORD, at(WINDOW_MS + 7 * MINUTE))).kind).toBe("signed-in");
  });

  it("checks no more than five passwords for an account when many are sent at once", async () => {
    const when = at(4 * WINDOW_MS);
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signIn(
          handle.db,
          {
            email: "chief@example.org",
            password: `wrong guess ${i}`,
            address: `198.51.100.${i}`,
            previousToken: null,
          },
          when,
        ),
      ),
    );
    const checked = burst.filter((o) => o.kind === "refused" && o.status === 401);
    expect(checked).toHaveLength(ACCOUNT_LIMIT);
    expect(burst.filter((o) => o.kind === "refused" && o.status === 429)).toHaveLength(
      40 - ACCOUNT_LIMIT,
    );
    // The right password after the burst is refused like any other until the window passes.
    const right = await signIn(
      handle.db,
      {
        email: "chief@example.org",
        password: PASSWORD,
        address: "198.51.100.99",
        previousToken: null,
      },
      when,
    );
    expect(right).toMatchObject({ status: 429 });
    // Refused attempts were not kept: the lockout ends when the five checked ones leave the window.
    const later = at(5 * WINDOW_MS + MINUTE);
    expect(
      (
        await signIn(
          handle.db,
          {
            email: "chief@example.org",
            password: PASSWORD,
            address: "198.51.100.99",
            previousToken: null,
          },
          later,
        )
      ).kind,
    ).toBe("signed-in");
  });

  it("checks no more than twenty passwords from one address when many are sent at once", async () => {
    const when = at(7 * WINDOW_MS);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        signIn(
          handle.db,
          {
            email: `someone${i}@example.org`,
            password: "nothing at all",
            address: "203.0.113.77",
            previousToken: null,
          },
          when,
        ),
      ),
    );
    expect(burst.filter((o) => o.kind === "refused" && o.status === 401)).toHaveLength(
      ADDRESS_LIMIT,
    );
  });

  it("locks an address after twenty failures across accounts, known or not", async () => {
    const when = at(2 * WINDOW_MS);
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      const outcome = await signIn(
        handle.db,
        {
          email: `guess${i}@example.org`,
          password: "nothing at all",
          address: "203.0.113.9",
          previousToken: null,
        },
        when,
      );
      expect(outcome.kind).toBe("refused");
    }
    const locked = await signIn(
      handle.db,
      {
        email: "editor@example.org",
        password: PASSWORD,
        address: "203.0.113.9",
        previousToken: null,
      },
      when,
    );
    expect(locked).toMatchObject({ error: SIGN_IN_LOCKED });
    // Neither e-mail nor address is stored, only keyed hashes.
    const keys = (await handle.db.select().from(formRateLimits)).map((f) => f.key).join(" ");
    expect(keys).not.toMatch(/example\.org|203\.0\.113\.9/);
  });

  it("ends a session after an hour unused, twelve hours after sign-in, and at sign-out", async () => {
    const [member] = await listStaff(handle.db);
    if (!member) throw new Error("no member");
    const idle = await startSession(handle.db, member.id, T0);
    expect(await sessionFor(handle.db, idle, at(IDLE_TIMEOUT_MS - MINUTE))).not.toBeNull();
    expect(await sessionFor(handle.db, idle, at(2 * IDLE_TIMEOUT_MS))).toBeNull();

    // Used every half hour, it still ends at the absolute timeout.
    const busy = await startSession(handle.db, member.id, T0);
    for (let t = 30 * MINUTE; t < ABSOLUTE_TIMEOUT_MS; t += 30 * MINUTE) {
      expect(await sessionFor(handle.db, busy, at(t))).not.toBeNull();
    }
    expect(await sessionFor(handle.db, busy, at(ABSOLUTE_TIMEOUT_MS + MINUTE))).toBeNull();

    const ended = await startSession(handle.db, member.id, T0);
    await endSession(handle.db, ended);
    expect(await sessionFor(handle.db, ended, at(MINUTE))).toBeNull();
  });

  it("never keeps a token across sign-in: the browser's old session ends, a new token is made", async () => {
    const [member] = await listStaff(handle.db);
    if (!member) throw new Error("no member");
    const planted = await startSession(handle.db, member.id, T0);
    const outcome = await signIn(
      handle.db,
      {
        email: "editor@example.org",
        password: PASSWORD,
        address: "10.9.9.9",
        previousToken: planted,
      },
      at(MINUTE),
    );
    if (outcome.kind !== "signed-in") throw new Error("not signed in");
    expect(outcome.token).not.toBe(planted);
    expect(await sessionFor(handle.db, planted, at(2 * MINUTE))).toBeNull();
    expect(await sessionFor(handle.db, "not a token", at(2 * MINUTE))).toBeNull();
  });

  it("ends every session of an account when its password is reset or it is removed", async () => {
    const member = await findStaff(handle.db, "editor@example.org");
    if (!member) throw new Error("no member");
    const token = await startSession(handle.db, member.id, T0);
    await resetPassword(handle.db, "editor@example.org", "another long password");
    expect(await sessionFor(handle.db, token, at(MINUTE))).toBeNull();
    const again = await startSession(handle.db, member.id, T0);
    expect(await removeStaff(handle.db, "editor@example.org")).toBe(true);
    expect(await sessionFor(handle.db, again, at(MINUTE))).toBeNull();
    expect(await removeStaff(handle.db, "editor@example.org")).toBe(false);
    // The audit log keeps who it was.
    const entries = await handle.db
      .select()
      .from(staffAudit)
      .where(eq(staffAudit.staffEmail, "editor@example.org"));
    expect(entries.length).toBeGreaterThan(0);
  });
});

/** A Set-Cookie header's name=value and attributes, whatever their order (RFC 6265 §5.2). */
const cookieParts = (header: string) => header.split("; ").sort();

describe("session cookies and redirects", () => {
  it("scope the cookie to the newsroom, out of scripts' and other sites' reach", () => {
    const token = "t".repeat(43);
    // The headers as they were written by hand until the cookie package wrote them.
    const before = `newsroom_session=${token}; Path=/newsroom; HttpOnly; SameSite=Lax; Max-Age=43200`;
    const cleared = "newsroom_session=; Path=/newsroom; HttpOnly; SameSite=Lax; Max-Age=0";
    const local = "http://127.0.0.1:3000";
    const https = "https://ledger.example.org";
    expect(cookieParts(sessionCookie(token, local))).toEqual(cookieParts(before));
    expect(cookieParts(sessionCookie(token, https))).toEqual(cookieParts(`${before}; Secure`));
    expect(cookieParts(clearedSessionCookie(local))).toEqual(cookieParts(cleared));
    expect(cookieParts(clearedSessionCookie(https))).toEqual(cookieParts(`${cleared}; Secure`));
  });

  it.each([
    [`a=1; newsroom_session=${"k".repeat(43)}; b=2`, "k".repeat(43)],
    [`newsroom_session=${"k".repeat(43)};newsroom_session=other`, "k".repeat(43)],
    ["  newsroom_session = spaced ; b=2", "spaced"],
    ["newsroom_session=a=b", "a=b"],
    ["newsroom_session=", null],
    ["newsroom_sessionx=1; b", null],
    ["", null],
  ])("read the token from the cookies %j as %j", (cookie, token) => {
    expect(sessionToken(new Request("http://x/newsroom", { headers: { Cookie: cookie } }))).toBe(
      token,
    );
  });

  it("read no token from a request without cookies", () => {
    expect(sessionToken(new Request("http://x/"))).toBeNull();
  });

  it.each([
    ["/newsroom/audit", "/newsroom/audit"],
    ["/newsroom?page=2", "/newsroom?page=2"],
    ["https://evil.example/newsroom", "/newsroom"],
    ["//evil.example/newsroom", "/newsroom"],
    ["/newsroom//evil.example", "/newsroom"],
    ["/article/x", "/newsroom"],
    ["/newsroomx", "/newsroom"],
  ])("send a member after sign-in to %s as %s", (next, expected) => {
    expect(afterSignIn(next)).toBe(expected);
  });
});
