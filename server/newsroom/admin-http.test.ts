import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffAudit } from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { confirmSubscription, requestSubscription } from "../newsletter/subscriptions";
import { upsertArticle } from "../news/repository";
import { addStaff } from "../staff/accounts";
import { staffClient } from "../staff/test-client";

/**
 * The admins' audit log and "Send today's digest now" over HTTP, against the production build:
 * the log told in sentences in San Diego time, filtered and paged by plain GET forms; the digest
 * asking first and, once every confirmed reader has had it, saying so instead of offering it.
 */

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

const PASSWORD = "a long enough password";
const STORY = "harbor-budget-passes";
const ANA = "ana.ruiz@example.org";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  await upsertArticle(handle.db, {
    id: STORY,
    category: "local-news",
    link: "https://sample.example.org/harbor-budget-passes",
    title: "Harbor budget passes",
    excerpt: "The port board voted 5 to 2.",
    content: "<p>The port board voted.</p>",
    image: null,
    author: "Staff Writer",
    publishedAt: new Date(Date.now() - 3600_000),
  });
  await addStaff(handle.db, { email: "chief@example.org", role: "admin", password: PASSWORD });
  // Ana's take-down at 9:14 in the morning, San Diego time, and 60 pins by a member since gone.
  await handle.db.insert(staffAudit).values([
    {
      staffId: 7,
      staffEmail: ANA,
      action: "story.take-down",
      subject: STORY,
      before: { down: false },
      after: { down: true, reason: "Legal request" },
      createdAt: new Date("2026-11-27T17:14:00Z"),
    },
    ...Array.from({ length: 60 }, (_, i) => ({
      staffId: 8,
      staffEmail: "former@example.org",
      action: "story.unpin",
      subject: `story-${i}`,
      createdAt: new Date(Date.UTC(2026, 10, 20, 12, i)),
    })),
  ]);
  app = await startTestApp(handle);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await handle?.dispose();
});

const client = staffClient({ base: () => app.base, password: PASSWORD });
const { get, post } = client;

describe("the audit log over HTTP", () => {
  it("tells each entry as a sentence in San Diego time, in a list rather than a table", async () => {
    const { cookie } = await client.signedIn("chief@example.org", "/newsroom/audit");
    const page = await (await get("/newsroom/audit", cookie)).text();
    expect(page).toContain(`${ANA} took down “Harbor budget passes” (reason: Legal request) —`);
    expect(page).toMatch(
      /<time dateTime="2026-11-27T17:14:00.000Z"[^>]*>Nov 27, 2026, 9:14 AM<\/time>/,
    );
    expect(page).toContain("chief@example.org signed in");
    expect(page).not.toContain("<table");
    // The filters are a GET form, so they work without JavaScript and can be linked to.
    expect(page).toMatch(/<form[^>]* action="\/newsroom\/audit" method="get"/);
  });

  it("filters by who and by kind of action, and pages within the filter", async () => {
    const { cookie } = await client.signedIn("chief@example.org", "/newsroom/audit");
    const ana = await (
      await get(`/newsroom/audit?who=${encodeURIComponent(ANA)}&kind=take-downs`, cookie)
    ).text();
    expect(ana).toContain("took down “Harbor budget passes”");
    expect(ana).not.toContain("signed in");
    expect(ana).not.toContain("unpinned");
    const sessions = await (await get("/newsroom/audit?kind=sessions", cookie)).text();
    expect(sessions).toContain("chief@example.org signed in");
    expect(sessions).not.toContain("took down");

    const pins = await (await get("/newsroom/audit?kind=pins", cookie)).text();
    expect(pins).toContain(">60 entries</h2>");
    expect(pins).toContain("former@example.org unpinned “story story-59”");
    expect(pins).not.toContain("“story story-9”");
    expect(pins).toContain('href="/newsroom/audit?kind=pins&amp;page=2"');
    const older = await (await get("/newsroom/audit?kind=pins&page=2", cookie)).text();
    expect(older).toContain("former@example.org unpinned “story story-9”");
    expect(older).toMatch(/Page (<!-- -->)?2(<!-- -->)? of (<!-- -->)?2/);
  });
});

describe("Send today's digest now over HTTP", () => {
  it("asks first, sends once, then says every confirmed reader has had it", async () => {
    const now = new Date();
    const pending = await requestSubscription(handle.db, "reader@example.com", {
      now,
      resendMinutes: 10,
    });
    if (!pending) throw new Error("no confirmation");
    expect((await confirmSubscription(handle.db, pending.token, now)).confirmed).toBe(true);

    const { cookie, csrf } = await client.signedIn("chief@example.org", "/newsroom/newsletter");
    const page = await (await get("/newsroom/newsletter", cookie)).text();
    expect(page).toContain("It goes to 1 confirmed reader.");
    // The button opens the confirmation (a GET), it sends nothing.
    expect(page).toMatch(
      /<form[^>]*method="get"><input type="hidden" name="confirm" value="send"\/><button[^>]*>Send today&#x27;s digest now<\/button>/,
    );
    const asking = await (await get("/newsroom/newsletter?confirm=send", cookie)).text();
    expect(asking).toContain("Send today&#x27;s digest to 1 confirmed reader now?");
    expect(asking).toMatch(/<form[^>]*method="post">[^]*?>Send it now<\/button>/);
    expect(asking).toContain(">Not now</a>");

    const sent = await post("/newsroom/newsletter", { _csrf: csrf, intent: "send" }, cookie);
    expect(sent.headers.get("location")).toBe("/newsroom/newsletter?done=started");
    await app.operations.idle();

    const ALL_HAD_IT = "Today&#x27;s digest has already gone to every confirmed reader.";
    for (const address of ["/newsroom/newsletter", "/newsroom/newsletter?confirm=send"]) {
      const after = await (await get(address, cookie)).text();
      expect(after, address).toContain(ALL_HAD_IT);
      expect(after, address).not.toContain("Send today&#x27;s digest now");
      expect(after, address).not.toContain("Send it now");
    }
    // A post from a page still open elsewhere starts nothing, and says why.
    const again = await post("/newsroom/newsletter", { _csrf: csrf, intent: "send" }, cookie);
    expect(again.headers.get("location")).toBe("/newsroom/newsletter?done=sent-already");
    await app.operations.idle();
    const told = await (await get("/newsroom/newsletter?done=sent-already", cookie)).text();
    expect(told).toContain(ALL_HAD_IT);
  });
});
