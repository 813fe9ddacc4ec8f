import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../db/test-databases";
import type { LoadContext } from "../http/load-context";
import { addStaff } from "./accounts";
import { requireAdmin, requireStaff } from "./guard";
import { csrfToken, SESSION_COOKIE, startSession } from "./sessions";

/**
 * `requireAdmin`, the one check admin-only pages and actions make: an admin passes, an editor is
 * answered 403 (for a page and for a post with a good form token alike), nobody else gets past
 * sign-in.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let context: LoadContext;
const SITE = "http://127.0.0.1:3000";
const PASSWORD = "a long enough password";
const cookies: Record<"admin" | "editor", string> = { admin: "", editor: "" };

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  // Only what the guard reads of a load context.
  context = { db: handle.db, config: { siteUrl: SITE } } as unknown as LoadContext;
  for (const role of ["admin", "editor"] as const) {
    const member = await addStaff(handle.db, {
      email: `${role}@example.org`,
      role,
      password: PASSWORD,
    });
    cookies[role] = `${SESSION_COOKIE}=${await startSession(handle.db, member.id, new Date())}`;
  }
});
afterAll(() => handle.dispose());

const page = (cookie?: string) =>
  new Request(`${SITE}/newsroom/feeds`, { headers: cookie ? { Cookie: cookie } : {} });

/** A post carrying the member's own, valid form token. */
async function post(role: "admin" | "editor") {
  const session = await requireStaff(page(cookies[role]), context);
  const form = new FormData();
  form.set("_csrf", await csrfToken(handle.db, session));
  const request = new Request(`${SITE}/newsroom/feeds`, {
    method: "POST",
    headers: { Cookie: cookies[role], Origin: SITE },
  });
  return { request, form };
}

/** What a guard threw: a redirect's or a data answer's status and location. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) {
      return { status: thrown.status, location: thrown.headers.get("Location") };
    }
    const answer = thrown as { init?: { status?: number } | null; data?: unknown };
    return { status: answer.init?.status, data: answer.data };
  }
  return null;
}

describe("requireAdmin", () => {
  it("lets an admin see and post", async () => {
    const session = await requireAdmin(page(cookies.admin), context);
    expect(session.member).toMatchObject({ email: "admin@example.org", role: "admin" });
    expect(session.csrf).toMatch(/^[\w-]{43}$/);
    const { request, form } = await post("admin");
    expect((await requireAdmin(request, context, form)).member.role).toBe("admin");
  });

  it("answers 403 to an editor, for a page and for a post with a good token", async () => {
    expect(await refusal(requireAdmin(page(cookies.editor), context))).toEqual({
      status: 403,
      data: "Only an admin can see or do this.",
    });
    const { request, form } = await post("editor");
    expect(await refusal(requireAdmin(request, context, form))).toMatchObject({ status: 403 });
    // The same editor passes the editors' check: the refusal is the role's.
    expect((await requireStaff(page(cookies.editor), context)).member.role).toBe("editor");
  });

  it("sends a visitor without a session to sign-in, and refuses a post without the token", async () => {
    expect(await refusal(requireAdmin(page(), context))).toEqual({
      status: 303,
      location: "/newsroom/sign-in?next=%2Fnewsroom%2Ffeeds",
    });
    const { request } = await post("admin");
    expect(await refusal(requireAdmin(request, context, new FormData()))).toMatchObject({
      status: 403,
    });
  });
});
