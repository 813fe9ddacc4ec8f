import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakingBanner, contactMessages } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { saveContactMessage } from "../forms/repository";
import { startTestApp } from "../http/test-app";
import { staffClient } from "../staff/test-client";
import { addStaff } from "../staff/accounts";
import { dateToSanDiegoLocal } from "../../shared/san-diego-time";

/**
 * The banner and the inbox over HTTP, against the production build with its page and read caches
 * on: a banner shows on the cached home page at once and is cleared at once, a banner about to end
 * keeps the page no longer than itself, staff's text and readers' messages are shown inert, and
 * deleting a message asks first.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

const PASSWORD = "a long enough password";
const HOSTILE = `<img src=x onerror=alert(1)>`;
const SITE_TEXT =
  "City Council meets Tuesday to vote on the downtown housing plan (sample headline)";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  await addStaff(handle.db, { email: "editor@example.org", role: "editor", password: PASSWORD });
  app = await startTestApp(handle, { PAGE_CACHE_MB: "16", READ_CACHE_MB: "16" });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

const client = staffClient({ base: () => app.base, password: PASSWORD });
const { get, post } = client;
const signedIn = (email: string) => client.signedIn(email, "/newsroom/banner");

/** The home page as a reader gets it, asked twice so the page cache keeps it. */
async function home() {
  await get("/");
  const response = await get("/");
  return {
    cache: response.headers.get("x-cache"),
    cacheControl: response.headers.get("cache-control"),
    body: await response.text(),
  };
}

const banner = (body: string) =>
  /<strong class="mr-2 uppercase">Breaking<\/strong>(.*?)<\/p>/.exec(body)?.[1] ?? null;

describe("the Breaking banner over HTTP", () => {
  it("shows on the cached home page at once, escaped, linked, and goes when cleared", async () => {
    const { cookie, csrf } = await signedIn("editor@example.org");
    const before = await home();
    expect(before.cache).toBe("HIT");
    expect(banner(before.body)).toBe(SITE_TEXT);

    const ends = dateToSanDiegoLocal(new Date(Date.now() + 3 * 3600_000));
    const set = await post(
      "/newsroom/banner",
      {
        _csrf: csrf,
        intent: "set",
        text: `Fire ${HOSTILE} near Alpine`,
        link: "/local-news",
        expires: ends,
      },
      cookie,
    );
    expect(set.status).toBe(303);
    expect(set.headers.get("location")).toBe("/newsroom/banner?done=set");

    const after = await home();
    expect(after.cache).toBe("HIT");
    expect(banner(after.body)).toBe(
      '<a href="/local-news" class="underline decoration-1 underline-offset-2">Fire &lt;img src=x onerror=alert(1)&gt; near Alpine</a>',
    );
    expect(after.body).not.toContain(HOSTILE);
    // Three hours left: the site's usual caching.
    expect(after.cacheControl).toBe("public, no-cache");
    const page = await (await get("/newsroom/banner?done=set", cookie)).text();
    expect(page).toContain("The banner is up on the home page.");
    expect(page).not.toContain(HOSTILE);

    const cleared = await post("/newsroom/banner", { _csrf: csrf, intent: "clear" }, cookie);
    expect(cleared.headers.get("location")).toBe("/newsroom/banner?done=clear");
    expect(banner((await home()).body)).toBe(SITE_TEXT);
  });

  it("keeps a home page no longer than the banner on it has left", async () => {
    // Set straight in the database, ending in 3 seconds (the form asks for 5 minutes at least).
    await handle.db.insert(breakingBanner).values({
      id: 1,
      text: "Ends in a moment",
      link: null,
      expiresAt: new Date(Date.now() + 3000),
      setBy: "editor@example.org",
    });
    await handle.announceChange();
    await new Promise((r) => setTimeout(r, 100));
    const soon = await home();
    expect(banner(soon.body)).toBe("Ends in a moment");
    expect(soon.cache).toBe("HIT");
    expect(soon.cacheControl).toMatch(/^public, no-cache, s-maxage=[123]$/);
    await new Promise((r) => setTimeout(r, 3500));
    // Nothing was announced: the cached page ran out with the banner.
    const later = await home();
    expect(banner(later.body)).toBe(SITE_TEXT);
    await handle.db.delete(breakingBanner);
    await handle.announceChange();
  });

  it("refuses a link that is not http(s) or a path of the site", async () => {
    const { cookie, csrf } = await signedIn("editor@example.org");
    const ends = dateToSanDiegoLocal(new Date(Date.now() + 3600_000));
    const response = await post(
      "/newsroom/banner",
      { _csrf: csrf, intent: "set", text: "Fire", link: "javascript:alert(1)", expires: ends },
      cookie,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Give a link that starts with http:// or https://");
    expect(banner((await home()).body)).toBe(SITE_TEXT);
  });

  it("refuses a link with a NUL in it, sent as it is or typed percent-encoded", async () => {
    const { cookie, csrf } = await signedIn("editor@example.org");
    const ends = dateToSanDiegoLocal(new Date(Date.now() + 3600_000));
    // The form's body carries link=%2Fe%00 (a NUL byte), then link=%2Fe%2500 ("%00" typed).
    for (const link of ["/e\u0000", "/e%00"]) {
      const response = await post(
        "/newsroom/banner",
        { _csrf: csrf, intent: "set", text: "Fire on Route 52", link, expires: ends },
        cookie,
      );
      expect(response.status, link).toBe(400);
      expect(await response.text()).toContain("Give a link that starts with http:// or https://");
    }
    // A NUL in the text is read as a space.
    const set = await post(
      "/newsroom/banner",
      { _csrf: csrf, intent: "set", text: "Fire on\u0000Route 52", link: "", expires: ends },
      cookie,
    );
    expect(set.status).toBe(303);
    expect(banner((await home()).body)).toBe("Fire on Route 52");
    await post("/newsroom/banner", { _csrf: csrf, intent: "clear" }, cookie);
    expect(banner((await home()).body)).toBe(SITE_TEXT);
  });
});

describe("the inbox over HTTP", () => {
  it("shows readers' messages inert, marks one handled, and deletes one after asking", async () => {
    await handle.db.delete(contactMessages);
    const { id } = await saveContactMessage(handle.db, {
      name: HOSTILE,
      email: "reader@example.org",
      category: null,
      message: `<script>alert(1)</script> ${HOSTILE}`,
    });
    const { cookie, csrf } = await signedIn("editor@example.org");
    const inbox = await (await get("/newsroom/inbox", cookie)).text();
    expect(inbox).not.toContain(HOSTILE);
    expect(inbox).not.toContain("<script>alert(1)");
    expect(inbox).toContain("&lt;img src=x onerror=alert(1)&gt;");

    const handled = await post(
      "/newsroom/inbox",
      { _csrf: csrf, intent: "handled", message: String(id), page: "1" },
      cookie,
    );
    expect(handled.headers.get("location")).toBe("/newsroom/inbox?done=handled");
    expect(await (await get("/newsroom/inbox?done=handled", cookie)).text()).toContain(
      "Handled by editor@example.org",
    );

    // The link asks; only the post deletes.
    const confirm = await get(`/newsroom/inbox/${id}/delete`, cookie);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Delete this message?");
    expect((await get("/newsroom/inbox", cookie)).status).toBe(200);
    const deleted = await post(`/newsroom/inbox/${id}/delete`, { _csrf: csrf, page: "1" }, cookie);
    expect(deleted.headers.get("location")).toBe("/newsroom/inbox?done=delete");
    expect((await get(`/newsroom/inbox/${id}/delete`, cookie)).status).toBe(404);
    // Without the form token, nothing is deleted.
    const { id: other } = await saveContactMessage(handle.db, {
      name: "Reader",
      email: "reader@example.org",
      category: null,
      message: "Hello",
    });
    expect((await post(`/newsroom/inbox/${other}/delete`, { page: "1" }, cookie)).status).toBe(403);
    expect((await get(`/newsroom/inbox/${other}/delete`, cookie)).status).toBe(200);
  });
});
