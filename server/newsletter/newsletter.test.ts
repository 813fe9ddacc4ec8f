import { createHash, createHmac } from "node:crypto";
import type { ParsedMail } from "mailparser";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  newsletterConfirmations,
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import { testDatabases } from "../db/test-databases";
import { startTestApp } from "../http/test-app";
import { upsertArticle } from "../news/repository";
import type { MailSite } from "./messages";
import { startNewsletterSchedule } from "./schedule";
import { NEWSLETTER_LOCK_ID, runNewsletter, type SendRun } from "./send";
import {
  confirmSubscription,
  requestSubscription,
  subscriberOfToken,
  suppress,
  unsubscribeToken,
} from "./subscriptions";
import { siteSecret } from "../db/secrets";
import { startTestSmtp } from "../test-support/smtp";
import { createMailer } from "./transport";

/**
 * The newsletter end to end over HTTP and real SMTP: the production build behind our Express app
 * on a real database, sending through an SMTP server on 127.0.0.1 whose messages are read back
 * with mailparser. Links in mail name SITE_URL (https://news.example.com); the test follows them
 * on the test server.
 */

const SITE_URL = "https://news.example.com";
const BOUNCES = "nobody@bounce.example.net";
const site: MailSite = {
  siteName: "San Diego Local Ledger",
  siteUrl: SITE_URL,
  from: "Ledger <news@example.com>",
};

const database = testDatabases()[0];
if (!database) throw new Error("no test database");
let handle: Awaited<ReturnType<typeof database.open>>;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let nextAddress = 1;
let address = "";

beforeAll(async () => {
  handle = await database.open();
  await handle.migrate();
  smtp = await startTestSmtp({ reject: (to) => to === BOUNCES });
  app = await startTestApp(handle, {
    TRUST_PROXY_HOPS: "1",
    SITE_URL,
    SMTP_URL: smtp.url,
    NEWSLETTER_FROM: site.from,
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await handle?.dispose();
});

beforeEach(() => {
  address = `198.51.100.${nextAddress++}`;
});

/** A request to the test server for an address of SITE_URL (a link from a mail). */
function follow(link: string, init: RequestInit = {}) {
  const url = new URL(link);
  expect(url.origin).toBe(SITE_URL);
  return fetch(`${app.base}${url.pathname}${url.search}`, {
    redirect: "manual",
    ...init,
    headers: { "X-Forwarded-For": address, ...init.headers },
  });
}

function signUp(email: string) {
  return fetch(`${app.base}/newsletter`, {
    method: "POST",
    body: new URLSearchParams({ email, returnTo: "/" }),
    redirect: "manual",
    headers: { "X-Forwarded-For": address },
  });
}

const mailsTo = async (email: string) =>
  (await smtp.parsed()).filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email);

/** Waits a moment for a mail that must not come, then says how many came. */
async function settledCount(email: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 400));
  return (await mailsTo(email)).length;
}

async function onlyMailTo(
  email: string,
  which: (mail: ParsedMail) => boolean = () => true,
): Promise<ParsedMail> {
  const matching = async () => (await mailsTo(email)).filter(which);
  await expect.poll(async () => (await matching()).length, { timeout: 10_000 }).toBe(1);
  const [mail] = await matching();
  if (!mail) throw new Error("no mail");
  return mail;
}

const header = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  return line?.line
    .slice(line.line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
};

/** The links of a mail's text part and of its HTML part. */
function links(mail: ParsedMail) {
  const text = [...(mail.text ?? "").matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
  const html = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map((m) =>
    (m[1] ?? "").replaceAll("&amp;", "&"),
  );
  return { text, html };
}

/** The https and mailto addresses of a List-Unsubscribe header. */
function listUnsubscribe(mail: ParsedMail) {
  const value = header(mail, "List-Unsubscribe") ?? "";
  const parts = [...value.matchAll(/<([^>]+)>/g)].map((m) => m[1] ?? "");
  return {
    https: parts.find((p) => p.startsWith("https://")) ?? "",
    mailto: parts.find((p) => p.startsWith("mailto:")) ?? "",
    post: header(mail, "List-Unsubscribe-Post"),
  };
}

async function subscriber(email: string) {
  const [row] = await handle.db
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, email));
  return row;
}

describe("signing up: double opt-in", () => {
  it("sends one confirmation mail whose link opens a page; only the page's POST confirms", async () => {
    const email = "ana@example.com";
    const answer = await signUp("  Ana@Example.com ");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/?subscribed=1#newsletter");

    const mail = await onlyMailTo(email);
    expect(mail.subject).toBe("Confirm your subscription to San Diego Local Ledger");
    expect(mail.from?.text).toBe('"Ledger" <news@example.com>');
    expect(mail.messageId).toMatch(/^<confirm\.[0-9a-f]{24}@news\.example\.com>$/);
    // Both parts carry the same confirmation and unsubscribe links.
    const { text, html } = links(mail);
    const confirm = text.find((l) => l.startsWith(`${SITE_URL}/newsletter/confirm?token=`));
    expect(confirm).toBeDefined();
    expect(html).toContain(confirm);
    const unsubscribe = listUnsubscribe(mail);
    expect(unsubscribe.https).toMatch(
      /^https:\/\/news\.example\.com\/newsletter\/unsubscribe\?token=[0-9a-f]{32}\.[\w-]{43}$/,
    );
    expect(unsubscribe.mailto).toMatch(
      /^mailto:news@example\.com\?subject=unsubscribe%20[0-9a-f]{32}\.[\w-]{43}$/,
    );
    expect(unsubscribe.post).toBe("List-Unsubscribe=One-Click");
    expect(text).toContain(unsubscribe.https);
    expect(html).toContain(unsubscribe.https);

    // Stored as a hash, never as the token itself; the address is pending.
    const token = new URL(confirm ?? "").searchParams.get("token") ?? "";
    const pending = await subscriber(email);
    expect(pending?.status).toBe("pending");
    expect(pending?.confirmTokenHash).toBe(createHash("sha256").update(token).digest("base64url"));
    expect(JSON.stringify(pending)).not.toContain(token);

    // A mail scanner's GET shows the page and changes nothing.
    const page = await follow(confirm ?? "");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const body = await page.text();
    expect(body).toContain("Confirm your subscription");
    expect(body).toContain(`name="token" value="${token}"`);
    expect((await subscriber(email))?.status).toBe("pending");

    const post = () =>
      fetch(`${app.base}/newsletter/confirm`, {
        method: "POST",
        body: new URLSearchParams({ token }),
        redirect: "manual",
      });
    const confirmed = await post();
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/newsletter/confirm?confirmed=1");
    const after = await subscriber(email);
    expect(after?.status).toBe("confirmed");
    expect(after?.confirmTokenHash).toBeNull();
    expect(await (await fetch(`${app.base}/newsletter/confirm?confirmed=1`)).text()).toContain(
      "You&#x27;re subscribed",
    );
    // Single use: the same token again is refused, and its page says the link no longer works.
    expect((await post()).status).toBe(400);
    expect(await (await follow(confirm ?? "")).text()).toContain("This link no longer works");
  });

  it("expires tokens, and re-sends to a pending address at most once per interval", async () => {
    const email = "ben@example.com";
    expect((await signUp(email)).status).toBe(303);
    await onlyMailTo(email);
    // At once again, and again: no second mail within NEWSLETTER_RESEND_MINUTES.
    expect((await signUp(email)).status).toBe(303);
    expect((await signUp(email)).status).toBe(303);
    expect(await settledCount(email)).toBe(1);

    const at = new Date();
    const later = new Date(at.getTime() + 11 * 60_000);
    expect(await requestSubscription(handle.db, email, { now: at, resendMinutes: 10 })).toBeNull();
    const fresh = await requestSubscription(handle.db, email, { now: later, resendMinutes: 10 });
    expect(fresh?.token).toMatch(/^[\w-]{43}$/);
    // 48 hours and a minute on, the link has expired.
    const expired = new Date(later.getTime() + (48 * 60 + 1) * 60_000);
    expect(await confirmSubscription(handle.db, fresh?.token ?? "", expired)).toEqual({
      confirmed: false,
    });
    expect(await confirmSubscription(handle.db, fresh?.token ?? "", later)).toEqual({
      confirmed: true,
    });
  });

  it("answers a confirmed address exactly as a new one, and sends it nothing", async () => {
    const known = "cleo@example.com";
    const due = await requestSubscription(handle.db, known, { now: new Date(), resendMinutes: 10 });
    await confirmSubscription(handle.db, due?.token ?? "", new Date());
    const before = smtp.raw.length;

    const answers = await Promise.all(
      [known, "dan-new@example.com"].map(async (email) => {
        const response = await signUp(email);
        return {
          status: response.status,
          location: response.headers.get("location"),
          body: await response.text(),
        };
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    // The same with JavaScript (the inline answer).
    const inline = await Promise.all(
      [known, "eve-new@example.com"].map(async (email) => {
        const response = await fetch(`${app.base}/newsletter.data`, {
          method: "POST",
          body: new URLSearchParams({ email, _inline: "1" }),
          headers: { "X-Forwarded-For": address },
        });
        return { status: response.status, body: await response.text() };
      }),
    );
    expect(inline[0]).toEqual(inline[1]);
    await onlyMailTo("dan-new@example.com");
    await onlyMailTo("eve-new@example.com");
    expect(await settledCount(known)).toBe(0);
    expect(smtp.raw.length).toBe(before + 2);
  });
});

async function confirmedReader(email: string) {
  const due = await requestSubscription(handle.db, email, { now: new Date(), resendMinutes: 10 });
  await confirmSubscription(handle.db, due?.token ?? "", new Date());
  const row = await subscriber(email);
  if (!row) throw new Error("no subscriber");
  return row;
}

const HASH = "ab".repeat(32);

describe("the digest", () => {
  beforeAll(async () => {
    const at = Date.now();
    const stories = [
      {
        id: "harbor",
        category: "local-news",
        title: "Harbor budget <script>alert(1)</script> & more",
        picture: {
          kind: "stored" as const,
          hash: HASH,
          width: 1600,
          height: 900,
          color: "#336699",
        },
      },
      { id: "trolley", category: "local-news", title: "Trolley line opens", picture: null },
      { id: "senate", category: "national-news", title: "Senate vote", picture: null },
      { id: "markets", category: "business", title: "Markets rise", picture: null },
      { id: "chips", category: "technology", title: "Chip plant", picture: null },
      { id: "quake", category: "world-news", title: "Quake drill", picture: null },
      { id: "older", category: "business", title: "Port jobs", picture: null },
    ];
    for (const [i, s] of stories.entries()) {
      await upsertArticle(handle.db, {
        id: s.id,
        category: s.category,
        link: `https://feeds.example.org/${s.id}`,
        title: s.title,
        excerpt: `Excerpt of ${s.id} with <b>tags</b> & "quotes"`,
        content: "<p>Body</p>",
        image: null,
        picture: s.picture,
        author: "Staff",
        publishedAt: new Date(at - i * 3_600_000),
      });
    }
  });

  it("goes to confirmed readers only, as HTML and text, with our pictures and escaped feed text", async () => {
    await handle.db.delete(newsletterIssues);
    const readers = await Promise.all(
      ["fay@example.com", "gus@example.com", BOUNCES].map(confirmedReader),
    );
    await requestSubscription(handle.db, "pending-only@example.com", {
      now: new Date(),
      resendMinutes: 10,
    });
    const audience = (
      await handle.db
        .select()
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.status, "confirmed"))
    ).map((s) => s.email);
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    const before = smtp.raw.length;
    const run = await runNewsletter(handle, { mailer, site, key: "2026-12-01" });
    mailer.close();
    expect(run.kind).toBe("sent");
    if (run.kind !== "sent") return;
    expect(run.summary).toMatchObject({
      sent: audience.length - 1,
      bounced: 1,
      failed: 0,
      remaining: 0,
      completed: true,
    });
    const digests = (await smtp.parsed()).slice(before);
    expect(digests.map((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "")).sort()).toEqual(
      audience.filter((e) => e !== BOUNCES).sort(),
    );
    expect(digests.map((m) => m.to && !Array.isArray(m.to) && m.to.text)).not.toContain(
      "pending-only@example.com",
    );

    const fay = digests.find(
      (m) => m.to && !Array.isArray(m.to) && m.to.text === "fay@example.com",
    );
    if (!fay) throw new Error("no digest for fay");
    const [first] = readers;
    expect(fay.messageId).toBe(`<issue-${run.summary.issueId}.${first?.id}@news.example.com>`);
    expect(fay.subject).toMatch(
      /^San Diego Local Ledger: The day's San Diego stories, \w+day, \w+ \d+$/,
    );
    const html = String(fay.html);
    // Per category, from the home page's lists; feed text escaped as on the site.
    expect(html).toContain("Today&#x27;s Headlines");
    expect(html).toContain("Harbor budget &lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(html).not.toContain("<script>");
    expect(html).toContain(
      "Excerpt of harbor with &lt;b&gt;tags&lt;/b&gt; &amp; &quot;quotes&quot;",
    );
    // Our own 640 px JPEG copy, at an absolute address of our origin; no other host's picture.
    expect(html).toContain(`src="${SITE_URL}/images/${HASH}/640.jpg" width="640" height="360"`);
    expect(
      [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].every((m) =>
        m[1]?.startsWith(`${SITE_URL}/images/`),
      ),
    ).toBe(true);
    expect(fay.text).toContain("Harbor budget <script>alert(1)</script> & more");
    expect(fay.text).toContain(`${SITE_URL}/article/harbor`);
    const { text, html: hrefs } = links(fay);
    expect(hrefs).toContain(`${SITE_URL}/article/harbor`);
    // Each reader's own unsubscribe address, in the headers and both parts.
    const unsubscribe = listUnsubscribe(fay);
    expect(unsubscribe.https).toMatch(
      new RegExp(`token=${first?.publicId.replaceAll("-", "")}\\.`),
    );
    expect(unsubscribe.post).toBe("List-Unsubscribe=One-Click");
    expect(unsubscribe.mailto).toMatch(/^mailto:news@example\.com\?subject=unsubscribe%20/);
    expect(text).toContain(unsubscribe.https);
    expect(hrefs).toContain(unsubscribe.https);

    // The bounce is suppressed and recorded; a second run sends nothing.
    const [suppressed] = await handle.db
      .select()
      .from(newsletterSuppressions)
      .where(eq(newsletterSuppressions.email, BOUNCES));
    expect(suppressed?.reason).toBe("bounced");
    expect(suppressed?.detail).toContain("550");
    const statuses = await handle.db
      .select({ status: newsletterDeliveries.status })
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.issueId, run.summary.issueId));
    expect(statuses.filter((s) => s.status === "bounced")).toHaveLength(1);
    const again = await runNewsletter(handle, {
      mailer: createMailer({ smtpUrl: smtp.url, outboxDir: "" }),
      site,
      key: "2026-12-01",
    });
    expect(again).toEqual({
      kind: "nothing",
      why: "sent",
      reason: "the issue 2026-12-01 was sent",
    });
    // A bounced address is not sent a confirmation again, whatever the form is told.
    const count = smtp.raw.length;
    expect((await signUp(BOUNCES)).status).toBe(303);
    expect(await settledCount(BOUNCES)).toBe(0);
    expect(smtp.raw.length).toBe(count);
  });

  it("is sent by one process at a time (the newsletter lock)", async () => {
    const held = handle.withLock(NEWSLETTER_LOCK_ID, { wait: false }, async () => {
      // (The embedded database's lock counts as held once its holder has started.)
      await new Promise((resolve) => setImmediate(resolve));
      const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
      const run = await runNewsletter(handle, { mailer, site, key: "2026-12-02" });
      mailer.close();
      return run;
    });
    expect(await held).toEqual({ acquired: true, value: { kind: "busy" } });
  });

  it("the daily schedule sends the day's issue once it is due, once, and stops cleanly", async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    const runs: SendRun[] = [];
    const before = smtp.raw.length;
    // Noon in San Diego on 2026-12-05; the digest is due from 06:00.
    let now = new Date("2026-12-05T20:00:00Z");
    const schedule = startNewsletterSchedule({
      database: handle,
      mail: { mailer, site, resendMinutes: 10, keepIssuesDays: 90 },
      sendAt: { hour: 6, minute: 0 },
      logger: pino({ level: "silent" }),
      checkEveryMs: 20,
      now: () => now,
      onRun: (run) => runs.push(run),
    });
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(runs[0]).toMatchObject({ kind: "sent", resumed: false });
    expect(runs.slice(1).every((run) => run.kind === "nothing" && run.why === "sent")).toBe(true);
    const sent = smtp.raw.length - before;
    expect(sent).toBeGreaterThan(0);
    // Early the next morning nothing is due yet.
    now = new Date("2026-12-06T13:00:00Z");
    const count = runs.length;
    await vi.waitFor(() => expect(runs.length).toBeGreaterThan(count + 1), { timeout: 10_000 });
    expect(runs.at(-1)).toMatchObject({ kind: "nothing", why: "not-due" });
    await schedule.stop();
    const stoppedAt = runs.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs.length).toBe(stoppedAt);
    expect(smtp.raw.length - before).toBe(sent);
    mailer.close();
  });

  it("one-click unsubscribe: a POST with no cookie from any origin; a GET only shows the button", async () => {
    const hal = await confirmedReader("hal@example.com");
    const ida = await confirmedReader("ida@example.com");
    await handle.db.delete(newsletterIssues);
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    await runNewsletter(handle, { mailer, site, key: "2026-12-03" });
    mailer.close();
    const halMail = (await mailsTo("hal@example.com")).at(-1);
    const idaMail = (await mailsTo("ida@example.com")).at(-1);
    if (!halMail || !idaMail) throw new Error("no digests");

    // GET (a scanner, a preview) shows a page with a button and unsubscribes nobody.
    const page = await follow(listUnsubscribe(idaMail).https);
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain("Unsubscribe from the newsletter");
    expect(body).toMatch(/<button[^>]*type="submit"[^>]*>Unsubscribe<\/button>/);
    expect((await subscriber(ida.email))?.status).toBe("confirmed");

    // What Gmail sends: a form POST to the header's address from its own servers.
    const oneClick = await follow(listUnsubscribe(halMail).https, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
      headers: { Origin: "https://mail.google.com", "Sec-Fetch-Site": "cross-site" },
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toBe("Unsubscribed: you will not get the newsletter again.");
    expect((await subscriber(hal.email))?.status).toBe("unsubscribed");
    const [suppressed] = await handle.db
      .select()
      .from(newsletterSuppressions)
      .where(eq(newsletterSuppressions.email, hal.email));
    expect(suppressed?.reason).toBe("unsubscribed");
    // A made-up token unsubscribes nobody.
    const forged = await fetch(
      `${app.base}/newsletter/unsubscribe?token=${ida.id}.${"A".repeat(43)}`,
      {
        method: "POST",
        body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
      },
    );
    expect(forged.status).toBe(400);
    expect((await subscriber(ida.email))?.status).toBe("confirmed");

    // The page's button: back to the page, which says so.
    const button = await fetch(`${app.base}/newsletter/unsubscribe`, {
      method: "POST",
      body: new URLSearchParams({
        token: new URL(listUnsubscribe(idaMail).https).searchParams.get("token") ?? "",
      }),
      redirect: "manual",
    });
    expect(button.status).toBe(303);
    const idaToken = new URL(listUnsubscribe(idaMail).https).searchParams.get("token") ?? "";
    expect(button.headers.get("location")).toBe(
      `/newsletter/unsubscribe?token=${encodeURIComponent(idaToken)}`,
    );
    expect((await subscriber(ida.email))?.status).toBe("unsubscribed");

    // Neither gets the next issue.
    await handle.db.delete(newsletterIssues);
    const next = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    const run = await runNewsletter(handle, { mailer: next, site, key: "2026-12-04" });
    next.close();
    const before = (await mailsTo(hal.email)).length + (await mailsTo(ida.email)).length;
    expect(run.kind).toBe("sent");
    expect((await mailsTo(hal.email)).length + (await mailsTo(ida.email)).length).toBe(before);

    // Signing up again from the form (past the resend interval, under a +tag too) sends nothing:
    // anyone can type an address that left.
    await handle.db
      .update(newsletterSubscribers)
      .set({ confirmSentAt: new Date(Date.now() - 3_600_000) })
      .where(eq(newsletterSubscribers.id, hal.id));
    await handle.db.delete(newsletterConfirmations);
    const mailsBefore = (await mailsTo(hal.email)).length;
    expect((await signUp(hal.email)).status).toBe(303);
    expect((await signUp("hal+again@example.com")).status).toBe(303);
    expect(await settledCount(hal.email)).toBe(mailsBefore);
    expect(await mailsTo("hal+again@example.com")).toEqual([]);
    expect((await subscriber(hal.email))?.status).toBe("unsubscribed");

    // The reader's own mail's page takes them back: its token proves the mailbox.
    const halLink = listUnsubscribe(halMail).https;
    const halToken = new URL(halLink).searchParams.get("token") ?? "";
    const left = await (await follow(halLink)).text();
    expect(left).toContain("You&#x27;re unsubscribed");
    expect(left).toContain("Subscribe again");
    const back = await fetch(`${app.base}/newsletter/unsubscribe`, {
      method: "POST",
      body: new URLSearchParams({ token: halToken, intent: "resubscribe" }),
      redirect: "manual",
    });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(
      `/newsletter/unsubscribe?token=${encodeURIComponent(halToken)}&resubscribed=1`,
    );
    expect((await subscriber(hal.email))?.status).toBe("confirmed");
    expect(
      await handle.db
        .select()
        .from(newsletterSuppressions)
        .where(eq(newsletterSuppressions.email, hal.email)),
    ).toEqual([]);
    expect(await (await follow(`${halLink}&resubscribed=1`)).text()).toContain(
      "You&#x27;re subscribed again",
    );
  });

  it("names readers in unsubscribe links by a random id, and still honours links sent before", async () => {
    const one = await confirmedReader("olive@example.com");
    const two = await confirmedReader("pete@example.com");
    const [first, second] = await Promise.all(
      [one, two].map((reader) => unsubscribeToken(handle.db, reader.publicId)),
    );
    // Each names its reader's random public id, never the row's id, which counts subscribers.
    expect(first).toMatch(new RegExp(`^${one.publicId.replaceAll("-", "")}\\.[\\w-]{43}$`));
    expect(second).toMatch(new RegExp(`^${two.publicId.replaceAll("-", "")}\\.[\\w-]{43}$`));
    expect(await subscriberOfToken(handle.db, first ?? "")).toBe(one.id);
    expect(await subscriberOfToken(handle.db, second ?? "")).toBe(two.id);
    // Another public id with this token's hash is not ours.
    const forged = `${"0".repeat(32)}.${first?.split(".")[1] ?? ""}`;
    expect(await subscriberOfToken(handle.db, forged)).toBeNull();
    // A link of the earlier form (the row's id and its hash) in a mail already sent still works.
    const secret = await siteSecret(handle.db, "newsletter-unsubscribe");
    const earlier = `${two.id}.${createHmac("sha256", secret).update(`unsubscribe:${two.id}`).digest("base64url")}`;
    expect(await subscriberOfToken(handle.db, earlier)).toBe(two.id);
    expect(await subscriberOfToken(handle.db, `${one.id}.${"A".repeat(43)}`)).toBeNull();
  });

  it("sends one confirmation per mailbox and interval, whatever +tag it is spelled with", async () => {
    await handle.db.delete(newsletterConfirmations);
    const spellings = Array.from({ length: 12 }, (_, i) => `kim+${i}@example.com`);
    // Sent at once, from many connections, as a script would.
    await Promise.all(spellings.map((email) => signUp(email)));
    await expect
      .poll(
        async () =>
          (await smtp.parsed()).filter((m) =>
            /kim(\+\d+)?@/.test(m.to && !Array.isArray(m.to) ? m.to.text : ""),
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(await settledCount("kim@example.com")).toBe(0);
    const sent = (await smtp.parsed()).filter((m) =>
      /^kim\+\d+@example\.com$/.test(m.to && !Array.isArray(m.to) ? m.to.text : ""),
    );
    expect(sent).toHaveLength(1);
    // The plain address shares the mailbox's interval.
    expect(
      await requestSubscription(handle.db, "kim@example.com", {
        now: new Date(),
        resendMinutes: 10,
      }),
    ).toBeNull();
    // Past the interval, the mailbox may have one more.
    const later = new Date(Date.now() + 11 * 60_000);
    expect(
      await requestSubscription(handle.db, "kim+0@example.com", { now: later, resendMinutes: 10 }),
    ).not.toBeNull();
  });

  it("sends no confirmation past the site's hourly cap", async () => {
    await handle.db.delete(newsletterConfirmations);
    const now = new Date();
    const asked = [];
    for (let i = 0; i < 5; i++) {
      asked.push(
        await requestSubscription(handle.db, `cap${i}@example.com`, {
          now,
          resendMinutes: 10,
          confirmationsPerHour: 3,
        }),
      );
    }
    expect(asked.map((due) => due !== null)).toEqual([true, true, true, false, false]);
    // An hour on, the cap counts again.
    const hourLater = new Date(now.getTime() + 61 * 60_000);
    expect(
      await requestSubscription(handle.db, "cap4@example.com", {
        now: hourLater,
        resendMinutes: 10,
        confirmationsPerHour: 3,
      }),
    ).not.toBeNull();
  });

  it("sends no confirmation to a bounced address, nor its +tag spellings", async () => {
    await suppress(handle.db, "lou@example.com", "bounced", "550 no such user");
    for (const email of ["lou@example.com", "lou+news@example.com"]) {
      expect(
        await requestSubscription(handle.db, email, { now: new Date(), resendMinutes: 10 }),
      ).toBeNull();
    }
  });

  it("leaves out a reader who unsubscribed after the issue was made", async () => {
    await handle.db.delete(newsletterIssues);
    const jo = await confirmedReader("jo@example.com");
    // The issue is made with jo in it, then the run is stopped before anything is sent.
    const stop = new AbortController();
    stop.abort();
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    const first = await runNewsletter(handle, {
      mailer,
      site,
      key: "2026-12-05",
      signal: stop.signal,
    });
    expect(first.kind === "sent" && first.summary.completed).toBe(false);
    await handle.db
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed" })
      .where(eq(newsletterSubscribers.id, jo.id));
    const before = (await mailsTo(jo.email)).length;
    const resumed = await runNewsletter(handle, { mailer, site, key: null });
    mailer.close();
    expect(
      resumed.kind === "sent" && resumed.resumed && resumed.summary.skipped,
    ).toBeGreaterThanOrEqual(1);
    expect((await mailsTo(jo.email)).length).toBe(before);
  });

  it("removes finished issues older than the kept days, with their deliveries, before a run", async () => {
    await handle.db.delete(newsletterIssues);
    const reader = await confirmedReader("kept-days@example.com");
    const DAY = 24 * 3_600_000;
    const issue = async (key: string, finishedDaysAgo: number | null) => {
      const [row] = await handle.db
        .insert(newsletterIssues)
        .values({
          key,
          subject: key,
          html: "<p>An issue</p>",
          text: "An issue",
          createdAt: new Date(Date.now() - (finishedDaysAgo ?? 60) * DAY),
          completedAt:
            finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * DAY),
        })
        .returning();
      if (!row) throw new Error("no issue");
      await handle.db.insert(newsletterDeliveries).values({
        issueId: row.id,
        subscriberId: reader.id,
        status: "sent",
        sentAt: row.createdAt,
      });
      return row.id;
    };
    await issue("2026-08-01", 45);
    await issue("2026-08-15", 31);
    const recent = await issue("2026-09-10", 29);
    // Never finished (a run stopped and nothing resumed it since): kept whatever its age.
    const unfinished = await issue("2026-07-30", null);

    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: "" });
    const run = await runNewsletter(handle, { mailer, site, key: null, keepIssuesDays: 30 });
    mailer.close();

    // The run went on to resume the unfinished issue, which had nobody left to send to.
    expect(run).toMatchObject({ kind: "sent", resumed: true, summary: { completed: true } });
    const left = await handle.db
      .select({ id: newsletterIssues.id, key: newsletterIssues.key })
      .from(newsletterIssues);
    expect(left.map((i) => i.key).sort()).toEqual(["2026-07-30", "2026-09-10"]);
    const deliveries = await handle.db
      .select({ issueId: newsletterDeliveries.issueId })
      .from(newsletterDeliveries);
    expect(deliveries.map((d) => d.issueId).sort()).toEqual([recent, unfinished].sort());
    // The default keeps 90 days: nothing more goes.
    const again = await runNewsletter(handle, { mailer, site, key: null });
    expect(again).toMatchObject({ kind: "nothing", why: "not-due" });
    expect(await handle.db.select().from(newsletterIssues)).toHaveLength(2);
  });
});
