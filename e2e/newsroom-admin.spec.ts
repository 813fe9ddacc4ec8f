import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import type { ParsedMail } from "mailparser";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { expectNoSeriousViolations } from "./axe";
import { waitForHydration } from "./helpers";
import { e2eOutbox, linkIn, mailsTo, mailTo } from "./outbox";

/**
 * The admins' screens on the newsroom's own copy of the sample site (E2E_PORT + 2), and issue
 * #23's whole newsletter flow in a browser, with and without JavaScript: a reader signs up, opens
 * the confirmation mail's link and confirms; an admin sends today's digest from the newsroom (that
 * site's database is its own, so no command can reach it); the digest in the outbox carries
 * one-click unsubscribe headers and only our own links and pictures; a GET of its unsubscribe
 * address changes nothing, a mail program's POST without a cookie unsubscribes; the next digest
 * goes to a new reader and not to the one who left.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const SITE = `http://127.0.0.1:${PORT}`;
const OUTBOX = e2eOutbox(PORT);
test.use({ baseURL: SITE });

type Member = (typeof E2E_STAFF)[keyof typeof E2E_STAFF];

async function signIn(page: Page, member: Member) {
  await page.goto("/newsroom/sign-in");
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Checking an argon2id hash takes a moment on a busy machine.
  await expect(page).toHaveURL(/\/newsroom$/, { timeout: 20_000 });
}

/** A browser of its own for a staff member, as wide as the test's page, JavaScript as the test. */
async function staffPage(
  browser: Browser,
  testInfo: TestInfo,
  member: Member,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: SITE,
    viewport: testInfo.project.use.viewport ?? null,
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  await signIn(page, member);
  return { context, page };
}

/** Axe and width where JavaScript runs (both are measured in the page), and a screenshot. */
async function review(page: Page, label: string, javaScript: boolean) {
  const width = page.viewportSize()?.width ?? 0;
  if (javaScript) {
    await expectNoSeriousViolations(page, label);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${label} fits ${width} px`).toBeLessThanOrEqual(width);
  }
  await page.screenshot({
    path: test.info().outputPath(`${label}-${javaScript ? "js" : "nojs"}-${width}.png`),
    fullPage: true,
  });
}

let nextAddress = 1;
test.beforeEach(async ({ page }, testInfo) => {
  const project = testInfo.project.name === "mobile-375" ? 1 : 2;
  await page.setExtraHTTPHeaders({
    "X-Forwarded-For": `198.51.100.${project * 100 + (nextAddress++ % 100)}`,
  });
});

async function signUpAndConfirm(page: Page, email: string, javaScript: boolean) {
  await page.goto("/");
  if (javaScript) await waitForHydration(page);
  const box = page.locator("#newsletter");
  await box.getByLabel("Email address").fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  const thanks = javaScript
    ? page.getByRole("status").filter({ hasText: "Thanks for subscribing!" })
    : box.getByRole("status");
  await expect(thanks).toContainText("Please confirm from your inbox");

  const confirmation = await mailTo(email, (m) => /^Confirm /.test(m.subject ?? ""), OUTBOX);
  await page.goto(linkIn(confirmation, "/newsletter/confirm"));
  if (javaScript) await waitForHydration(page);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're subscribed");
}

/**
 * Presses "Send today's digest now" and confirms, until it is not busy (the other width's run may
 * be sending now); answers the notice, or what the page says when every reader has had it.
 */
async function sendDigest(admin: Page): Promise<string> {
  let notice = "";
  await expect
    .poll(
      async () => {
        await admin.goto("/newsroom/newsletter");
        const press = admin.getByRole("button", { name: "Send today's digest now" });
        if ((await press.count()) === 0) {
          notice = (await admin.getByRole("status").first().textContent()) ?? "";
          return notice.includes("being sent to every confirmed reader now") ? "busy" : "done";
        }
        await press.click();
        await admin.getByRole("button", { name: "Send it now" }).click();
        const status = admin
          .getByRole("status")
          .filter({ hasText: /digest|story to send|could not/ })
          .first();
        await expect(status).toBeVisible();
        notice = (await status.textContent()) ?? "";
        return notice.includes("nothing more was started") ? "busy" : "done";
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe("done");
  return notice;
}

/** The state the newsroom's list shows for an address (newest first: on the first page). */
async function stateOf(admin: Page, email: string): Promise<string> {
  await admin.goto("/newsroom/newsletter");
  const row = admin.getByRole("row").filter({ hasText: email });
  return ((await row.getByRole("cell").nth(1).textContent()) ?? "").trim();
}

const header = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  return line?.line
    .slice(line.line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
};

const isDigest = (m: ParsedMail) => !/^Confirm /.test(m.subject ?? "");

for (const javaScript of [true, false]) {
  test.describe(`${javaScript ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: javaScript });

    test("signup, confirmation, digest from the newsroom, one-click unsubscribe", async ({
      page,
      browser,
      playwright,
    }, testInfo) => {
      test.setTimeout(120_000);
      const tag = `${testInfo.project.name}-${javaScript ? "js" : "nojs"}-${Date.now()}`;
      const email = `digest-${tag}@example.com`;
      await signUpAndConfirm(page, email, javaScript);

      const { context: adminContext, page: admin } = await staffPage(
        browser,
        testInfo,
        E2E_STAFF.admin,
      );
      expect(await stateOf(admin, email)).toBe("confirmed");
      await review(admin, "newsroom-newsletter", javaScript);
      // The button asks first, on the page itself: nothing is sent until "Send it now".
      await admin.getByRole("button", { name: "Send today's digest now" }).click();
      await expect(admin.getByText(/^Send today's digest to .+ now\?$/)).toBeVisible();
      await review(admin, "newsroom-newsletter-confirm", javaScript);
      await admin.getByRole("link", { name: "Not now" }).click();
      await expect(admin.getByRole("button", { name: "Send it now" })).toHaveCount(0);
      const first = await sendDigest(admin);
      expect(first).toMatch(/being sent|has already gone to every confirmed reader/);
      await review(admin, "newsroom-newsletter-sent", javaScript);

      const digest = await mailTo(email, isDigest, OUTBOX);
      // RFC 8058 one-click, and a mailto for programs without it.
      const listUnsubscribe = header(digest, "List-Unsubscribe") ?? "";
      const targets = [...listUnsubscribe.matchAll(/<([^>]+)>/g)].map((m) => m[1] ?? "");
      const oneClick = targets.find((t) => /^https?:\/\//.test(t)) ?? "";
      expect(new URL(oneClick).origin).toBe(SITE);
      expect(new URL(oneClick).pathname).toBe("/newsletter/unsubscribe");
      expect(targets.some((t) => t.startsWith("mailto:"))).toBe(true);
      expect(header(digest, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      // Both parts; every link and picture on our own origin.
      const html = String(digest.html);
      expect(digest.text ?? "").toContain(`${SITE}/article/`);
      const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(hrefs.length).toBeGreaterThan(3);
      for (const href of hrefs) expect(new URL(href.replaceAll("&amp;", "&")).origin).toBe(SITE);
      for (const link of (digest.text ?? "").match(/https?:\/\/\S+/g) ?? []) {
        expect(new URL(link).origin).toBe(SITE);
      }
      const pictures = [...html.matchAll(/<img[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(pictures.length).toBeGreaterThan(0);
      for (const src of pictures) expect(new URL(src).origin).toBe(SITE);
      const picture = await page.request.get(pictures[0] ?? "");
      expect(picture.status()).toBe(200);
      expect(picture.headers()["content-type"]).toBe("image/jpeg");

      // A GET of the one-click address (a mail scanner, a click) shows a button and changes nothing.
      const unsubscribePath = `${new URL(oneClick).pathname}${new URL(oneClick).search}`;
      await page.goto(unsubscribePath);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Unsubscribe from the newsletter",
      );
      await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeVisible();
      expect(await stateOf(admin, email)).toBe("confirmed");

      // The mail program's POST: no cookie, no page, from another origin.
      const mailProgram = await playwright.request.newContext();
      const posted = await mailProgram.post(oneClick, {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        data: "List-Unsubscribe=One-Click",
      });
      expect(posted.status()).toBe(200);
      expect((await mailProgram.storageState()).cookies).toEqual([]);
      await mailProgram.dispose();
      expect(await stateOf(admin, email)).toBe("unsubscribed");

      // The next digest: a reader who confirms now gets today's; the one who left gets nothing.
      const later = `later-${tag}@example.com`;
      await signUpAndConfirm(page, later, javaScript);
      await sendDigest(admin);
      await mailTo(later, isDigest, OUTBOX);
      expect((await mailsTo(email, OUTBOX)).filter(isDigest)).toHaveLength(1);

      // Pressing again sends nobody today's digest twice: the page says everyone has had it.
      expect(await sendDigest(admin)).toMatch(
        /has already gone to every confirmed reader|being sent/,
      );
      await expect.poll(async () => (await mailsTo(later, OUTBOX)).filter(isDigest).length).toBe(1);
      await adminContext.close();
    });

    test("the audit log: sentences in San Diego time, filtered by who and by kind", async ({
      browser,
    }, testInfo) => {
      const { context, page: admin } = await staffPage(browser, testInfo, E2E_STAFF.admin);
      await admin.goto("/newsroom/audit");
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Audit log");
      const list = admin.getByRole("list", { name: "Entries" });
      const entries = list.getByRole("listitem").filter({ hasText: " signed in — " });
      await expect(entries.first()).toContainText(
        /^\S+@\S+ signed in — [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/,
      );
      await admin.getByLabel("Who").selectOption(E2E_STAFF.admin.email);
      await admin.getByLabel("What").selectOption({ label: "Sign-ins and sign-outs" });
      await admin.getByRole("button", { name: "Show" }).click();
      await expect(admin).toHaveURL(/[?&]kind=sessions/);
      await expect(admin.getByRole("heading", { level: 2 })).toHaveText(/^\d+ entr(y|ies)$/);
      const shown = await list.getByRole("listitem").allTextContents();
      expect(shown.length).toBeGreaterThan(0);
      for (const line of shown) {
        expect(line).toMatch(
          new RegExp(`^${E2E_STAFF.admin.email.replace(".", "\\.")} signed (in|out)`),
        );
      }
      await review(admin, "newsroom-audit", javaScript);
      await context.close();
    });

    test("the feeds screen: health, an ingest pass; editors are refused", async ({
      browser,
    }, testInfo) => {
      // An ingest pass of the whole e2e site runs in it: 27 s under a full test run.
      test.setTimeout(90_000);
      const { context, page: admin } = await staffPage(browser, testInfo, E2E_STAFF.admin);
      await admin.goto("/newsroom/feeds");
      await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Feeds");
      const feeds = admin.getByRole("region", { name: /^\d+ feeds$/ }).getByRole("listitem");
      expect(await feeds.count()).toBeGreaterThan(3);
      await expect(feeds.filter({ hasText: /^ok/ }).first()).toBeVisible();
      await review(admin, "newsroom-feeds", javaScript);

      await admin.getByRole("button", { name: "Start an ingest pass" }).click();
      await expect(admin.getByRole("status").filter({ hasText: /ingest pass/ })).toContainText(
        /An ingest pass has started|already running/,
      );
      // The pass writes what it did to the audit log, which the page reads back.
      await expect
        .poll(
          async () => {
            await admin.goto("/newsroom/feeds");
            return admin.getByText(/^Last pass started here: /).count();
          },
          { timeout: 30_000 },
        )
        .toBe(1);
      await review(admin, "newsroom-feeds-pass", javaScript);

      // The next digest as readers get it, with a sample unsubscribe address.
      const preview = await admin.request.get("/newsroom/newsletter/preview");
      expect(preview.status()).toBe(200);
      expect(preview.headers()["content-type"]).toBe("text/html; charset=utf-8");
      expect(preview.headers()["cache-control"]).toBe("private, no-store");
      expect(await preview.text()).toContain(`${SITE}/newsletter/unsubscribe?token=preview`);

      // The subscribers' file, as the admin's browser downloads it.
      await admin.goto("/newsroom/newsletter");
      const [download] = await Promise.all([
        admin.waitForEvent("download"),
        admin.getByRole("link", { name: "Download the subscribers (CSV)" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
      await context.close();

      const { context: editorContext, page: editor } = await staffPage(
        browser,
        testInfo,
        E2E_STAFF.editor,
      );
      await expect(editor.getByRole("link", { name: "Feeds" })).toHaveCount(0);
      await expect(editor.getByRole("link", { name: "Newsletter" })).toHaveCount(0);
      for (const address of [
        "/newsroom/feeds",
        "/newsroom/newsletter",
        "/newsroom/newsletter/subscribers.csv",
        "/newsroom/newsletter/preview",
      ]) {
        const response = await editor.request.get(address);
        expect(response.status(), address).toBe(403);
      }
      await editorContext.close();
    });
  });
}
