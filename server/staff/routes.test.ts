import path from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsletterSubscribers } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { addStaff } from "./accounts";
import { recordAudit } from "./audit";
import { decoyHashReady } from "./passwords";

/**
 * The newsroom over HTTP, against the production build: no staff page or action answers without a
 * session (every newsroom route of the route table, not a hand-made list), an editor cannot do an
 * admin's work, a post without the session's form token or from another origin is refused, and
 * signing in never keeps a token the browser brought.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let build: ServerBuild;

const PASSWORD = "a long enough password";
/** Written to the audit log: a page that leaks staff data without a session would show it. */
const MARKER = "STAFF-ONLY-MARKER-7f3a";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  app = await startTestApp(handle);
  build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  const admin = await addStaff(handle.db, {
    email: "chief@example.org",
    role: "admin",
    password: PASSWORD,
  });
  await addStaff(handle.db, { email: "editor@example.org", role: "editor", password: PASSWORD });
  await recordAudit(handle.db, admin, { action: "test", subject: MARKER });
  // Readers' addresses: only an admin may see them.
  await handle.db.insert(newsletterSubscribers).values([
    { email: "=cmd@example.net", status: "confirmed" },
    { email: "reader@example.net", status: "pending" },
  ]);
}, 120_000);

afterAll(async () => {
  await app.close();
  await handle.dispose();
});

const get = (address: string, cookie?: string) =>
  fetch(`${app.base}${address}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

const post = (
  address: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  fetch(`${app.base}${address}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });

/** Signs in over HTTP and answers the session cookie (name=value). */
async function signedIn(email: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await post(
    "/newsroom/sign-in",
    { email, password: PASSWORD, next: "/newsroom" },
    extra,
  );
  expect(response.status).toBe(303);
  const cookie = response.headers.get("set-cookie") ?? "";
  expect(cookie.split("; ").sort()).toEqual([
    "HttpOnly",
    "Max-Age=43200",
    "Path=/newsroom",
    "SameSite=Lax",
    expect.stringMatching(/^newsroom_session=[\w-]{43}$/),
  ]);
  return cookie.split(";")[0] ?? "";
}

async function csrfOf(cookie: string): Promise<string> {
  const page = await (await get("/newsroom", cookie)).text();
  const token = /name="_csrf" value="([\w-]+)"/.exec(page)?.[1];
  if (!token) throw new Error("no form token on the newsroom page");
  return token;
}

/** Every newsroom address in the route table but the sign-in page, with any parameter filled in. */
function newsroomAddresses(): string[] {
  const paths = Object.values(build.routes)
    .map((route) => route?.path)
    .filter((p): p is string => typeof p === "string" && /^newsroom(\/|$)/.test(p))
    .filter((p) => p !== "newsroom/sign-in");
  expect(paths.length).toBeGreaterThanOrEqual(3);
  // The inbox's screens are in the table (so in every check below), taken from it like the rest.
  expect(paths).toEqual(
    expect.arrayContaining([
      "newsroom/banner",
      "newsroom/inbox",
      "newsroom/inbox/:id/delete",
      "newsroom/polls",
    ]),
  );
  return paths.map((p) => `/${p.replace(/:\w+\??/g, "x")}`);
}

describe("the newsroom without a session", () => {
  it("has the decoy hash made at start, before the first unknown e-mail signs in", async () => {
    expect(await decoyHashReady()).toBe(true);
  });

  it("sends every page to sign-in, with the page to come back to", async () => {
    for (const address of newsroomAddresses()) {
      const response = await get(address);
      expect(response.status, address).toBe(303);
      expect(response.headers.get("location"), address).toMatch(/^\/newsroom(\/sign-in\?next=|$)/);
      expect(await response.text()).not.toContain(MARKER);
    }
  });

  it("gives no staff data to a client-side navigation, and runs no action", async () => {
    for (const address of newsroomAddresses()) {
      const data = await get(`${address}.data`);
      const body = await data.text();
      expect(body, address).not.toContain(MARKER);
      expect(data.status === 200 && !body.includes("/newsroom"), address).toBe(false);
      const posted = await post(address, { _csrf: "x" });
      expect([303, 405], address).toContain(posted.status);
      expect(await posted.text()).not.toContain(MARKER);
    }
  });
});

describe("the newsroom with a session", () => {
  it("shows an admin the audit log, private and out of search engines", async () => {
    const cookie = await signedIn("chief@example.org");
    const response = await get("/newsroom/audit", cookie);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(MARKER);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(response.headers.get("x-cache")).not.toBe("HIT");
  });

  it("never lets a staff page into the public page cache, however its address is spelled", async () => {
    const chief = await signedIn("chief@example.org");
    const spellings = (address: string) => [
      address.replace("/newsroom", "/Newsroom"),
      address.replace("/newsroom", "/NEWSROOM"),
      address.replace("/newsroom", "/%6Eewsroom"),
      address.replace("/newsroom", "/new%73room"),
    ];
    const addresses = newsroomAddresses()
      .filter((a) => a !== "/newsroom/sign-out")
      .flatMap((a) => [a, `${a}.data`, `${a}?page=2`])
      .flatMap(spellings);
    let shown = 0;
    for (const address of addresses) {
      const staff = await get(address, chief);
      const body = await staff.text();
      if (staff.status === 200 && (body.includes(MARKER) || body.includes("reader@example.net"))) {
        shown += 1;
        expect(staff.headers.get("cache-control"), address).toBe("private, no-store");
        expect(staff.headers.get("x-robots-tag"), address).toBe("noindex, nofollow");
      }
      // The next reader, signed out, at the same address: never the staff's page.
      const reader = await get(address);
      const seen = await reader.text();
      expect(reader.headers.get("x-cache"), address).not.toBe("HIT");
      expect(seen, address).not.toContain(MARKER);
      expect(seen, address).not.toContain("reader@example.net");
      expect(seen, address).not.toMatch(/name="_csrf" value="[\w-]+"/);
    }
    // The router matched the odd spellings: the staff's pages were there to be kept.
    expect(shown).toBeGreaterThanOrEqual(8);
    // Every staff route in four spellings, each asked twice: the longest test here.
  }, 120_000);

  it("titles every page it shows '… | Newsroom' and keeps it out of search engines", async () => {
    const chief = await signedIn("chief@example.org");
    const pages: [string, Response][] = [["/newsroom/sign-in", await get("/newsroom/sign-in")]];
    for (const address of newsroomAddresses().filter((a) => a !== "/newsroom/sign-out")) {
      pages.push([address, await get(address, chief)]);
    }
    let documents = 0;
    for (const [address, response] of pages) {
      if (!response.headers.get("content-type")?.startsWith("text/html")) continue;
      if (response.status !== 200) continue;
      documents += 1;
      const html = await response.text();
      expect(html, address).toMatch(/<title>(?:[^<|]+ \| )?Newsroom<\/title>/);
      expect(html, address).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
    expect(documents).toBeGreaterThanOrEqual(10);
  });

  it("refuses an editor an admin's page", async () => {
    const cookie = await signedIn("editor@example.org");
    const response = await get("/newsroom/audit", cookie);
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain(MARKER);
    expect((await get("/newsroom", cookie)).status).toBe(200);
  });

  it("refuses an editor every admin's page, download and action; lets an admin in", async () => {
    const editor = await signedIn("editor@example.org");
    const chief = await signedIn("chief@example.org");
    const editorToken = await csrfOf(editor);
    // Taken from the route table: a new route is either an editor's (200) or in this list (403).
    const adminOnly = [
      "/newsroom/audit",
      "/newsroom/feeds",
      "/newsroom/newsletter",
      "/newsroom/newsletter/subscribers.csv",
      "/newsroom/newsletter/preview",
      "/newsroom/staff",
      "/newsroom/staff/x/remove",
    ];
    const refused: string[] = [];
    for (const address of newsroomAddresses().filter((a) => a !== "/newsroom/sign-out")) {
      const response = await get(address, editor);
      const body = await response.text();
      expect(body, address).not.toContain(MARKER);
      expect(body, address).not.toContain("@example.net");
      if (response.status === 403) refused.push(address);
      else expect([200, 404], address).toContain(response.status);
    }
    expect(refused.sort()).toEqual([...adminOnly].sort());
    for (const address of ["/newsroom/feeds", "/newsroom/newsletter"]) {
      const posted = await post(
        address,
        { _csrf: editorToken, intent: address.endsWith("feeds") ? "ingest" : "send" },
        { Cookie: editor },
      );
      expect(posted.status, address).toBe(403);
    }
    for (const address of adminOnly) {
      const response = await get(address, chief);
      // The preview is 404 when there is no story to send: still past the guard.
      expect([200, 404], address).toContain(response.status);
      expect(response.headers.get("cache-control"), address).toBe("private, no-store");
    }
    // Nothing was started: no audit row of a pass or a digest.
    const audit = await (await get("/newsroom/audit", chief)).text();
    expect(audit).not.toContain("feeds.ingest");
    expect(audit).not.toContain("newsletter.send");
  });

  it("gives an admin the subscribers as a CSV download that no spreadsheet runs", async () => {
    const chief = await signedIn("chief@example.org");
    const response = await get("/newsroom/newsletter/subscribers.csv", chief);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe('"email","status","suppressed","signed_up","confirmed","unsubscribed"');
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual([
      `"'=cmd@example.net","confirmed"`,
      '"reader@example.net","pending"',
      "",
    ]);
    // The newsletter page counts and lists them, and the editor's refused one showed none.
    const page = await (await get("/newsroom/newsletter", chief)).text();
    expect(page).toContain("reader@example.net");
  });

  it("refuses a post without the session's form token, or from another origin", async () => {
    const cookie = await signedIn("chief@example.org");
    const csrf = await csrfOf(cookie);
    const noToken = await post("/newsroom/sign-out", {}, { Cookie: cookie });
    expect(noToken.status).toBe(403);
    const wrongToken = await post(
      "/newsroom/sign-out",
      { _csrf: `${csrf.slice(1)}A` },
      { Cookie: cookie },
    );
    expect(wrongToken.status).toBe(403);
    const elsewhere = await post(
      "/newsroom/sign-out",
      { _csrf: csrf },
      { Cookie: cookie, Origin: "https://evil.example" },
    );
    expect(elsewhere.status).toBe(403);
    // Still signed in after all three.
    expect((await get("/newsroom", cookie)).status).toBe(200);

    // The site's own origin, as a browser on SITE_URL sends it.
    const origin = new URL(app.config.siteUrl).origin;
    const out = await post(
      "/newsroom/sign-out",
      { _csrf: csrf },
      { Cookie: cookie, Origin: origin },
    );
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/newsroom/sign-in?signed-out");
    expect(out.headers.get("set-cookie")?.split("; ").sort()).toEqual([
      "HttpOnly",
      "Max-Age=0",
      "Path=/newsroom",
      "SameSite=Lax",
      "newsroom_session=",
    ]);
    expect((await get("/newsroom", cookie)).status).toBe(303);
  });

  it("never keeps a session token the browser brought to sign-in (fixation)", async () => {
    const planted = await signedIn("editor@example.org");
    const fresh = await signedIn("editor@example.org", { Cookie: planted });
    expect(fresh).not.toBe(planted);
    expect((await get("/newsroom", planted)).status).toBe(303);
    expect((await get("/newsroom", fresh)).status).toBe(200);
  });

  it("answers a wrong password and an unknown e-mail alike, on the page, without a cookie", async () => {
    const wrong = await post("/newsroom/sign-in", {
      email: "chief@example.org",
      password: "not the password",
    });
    const unknown = await post("/newsroom/sign-in", {
      email: "nobody@example.org",
      password: "not the password",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.text(), await unknown.text()];
    expect(a).toContain("That e-mail address and password do not match a staff account.");
    expect(b).toContain("That e-mail address and password do not match a staff account.");
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });
});

describe("public pages", () => {
  it("keep the newsroom out of robots and sitemaps", async () => {
    expect(await (await get("/robots.txt")).text()).toContain("Disallow: /newsroom");
    const sitemapIndex = await (await get("/sitemap.xml")).text();
    const files = [...sitemapIndex.matchAll(/<loc>[^<]*(\/sitemaps\/[^<]+)<\/loc>/g)].map(
      (m) => m[1],
    );
    for (const file of files) {
      expect(await (await get(file ?? "")).text()).not.toContain("/newsroom");
    }
  });
});
