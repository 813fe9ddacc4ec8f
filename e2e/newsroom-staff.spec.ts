import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { review, signIn, SITE, type Member } from "./newsroom-site";

/**
 * Admins manage staff accounts in the newsroom (/newsroom/staff), on the newsroom's own copy of
 * the sample site, with and without JavaScript: an admin adds an editor, who signs in; makes them
 * an admin; resets their password, which signs them out, and the new one signs them in; removes
 * the account after confirming, which signs them out again; and the audit log tells each change.
 * An editor is refused the page.
 */

test.use({ baseURL: SITE });

let nextAddress = 1;
test.beforeEach(async ({ page }, testInfo) => {
  // Sign-ins are counted per address: each test speaks for one of its own.
  const project = testInfo.project.name === "mobile-375" ? 1 : 2;
  await page.setExtraHTTPHeaders({
    "X-Forwarded-For": `192.0.2.${project * 100 + (nextAddress++ % 100)}`,
  });
});

/** What a page says once an action is done (a navigation's own "Loading" status aside). */
async function expectDone(page: Page, text: string | RegExp) {
  await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible({
    timeout: 15_000,
  });
}

/** A browser of the member's own, as wide as the test's page, JavaScript as the test. */
async function memberPage(browser: Browser, testInfo: TestInfo, javaScript: boolean) {
  const context = await browser.newContext({
    baseURL: SITE,
    viewport: testInfo.project.use.viewport ?? null,
    javaScriptEnabled: javaScript,
    extraHTTPHeaders: { "X-Forwarded-For": `192.0.2.${(nextAddress++ % 50) + 1}` },
  });
  return { context, page: await context.newPage() };
}

/** The member's entry in the list of accounts. */
const entry = (page: Page, email: string) =>
  page
    .getByRole("region", { name: /^\d+ accounts?$/ })
    .getByRole("listitem")
    .filter({ hasText: email });

for (const javaScript of [true, false]) {
  test.describe(`${javaScript ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: javaScript });

    test("an admin adds an editor, changes the role, resets the password, removes it", async ({
      page,
      browser,
    }, testInfo) => {
      // Five sign-ins, each an argon2id check, and two browsers.
      test.setTimeout(120_000);
      const tag = `${testInfo.project.name}-${javaScript ? "js" : "nojs"}-${Date.now()}`;
      const writer: Member = {
        email: `writer-${tag}@example.org`,
        password: `first password of ${tag}`,
        role: "editor",
      };
      const label = `newsroom-staff-${javaScript ? "js" : "nojs"}`;

      await signIn(page, E2E_STAFF.admin);
      await page.getByRole("link", { name: "Staff accounts" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Staff accounts");
      // The admin's own entry offers no way to demote or remove themself.
      const own = entry(page, E2E_STAFF.admin.email);
      await expect(own).toContainText("(you)");
      await expect(own.getByRole("button", { name: /^Make an/ })).toHaveCount(0);
      await expect(own.getByRole("link", { name: /^Remove/ })).toHaveCount(0);
      await review(page, label, javaScript);

      // Add the editor.
      const add = page.getByRole("region", { name: "Add an account" });
      await add.getByLabel("E-mail", { exact: true }).fill(writer.email);
      await add.getByRole("combobox", { name: "Role" }).selectOption("editor");
      await add.getByLabel("Password", { exact: true }).fill(writer.password);
      await add.getByRole("button", { name: "Add the account" }).click();
      await expectDone(page, `${writer.email} is added as an editor`);
      await expect(entry(page, writer.email)).toContainText("Editor · since");
      await review(page, `${label}-added`, javaScript);

      // The same address again: refused, said on the page, the address kept in its field.
      await add.getByLabel("E-mail", { exact: true }).fill(writer.email.toUpperCase());
      await add.getByLabel("Password", { exact: true }).fill(writer.password);
      await add.getByRole("button", { name: "Add the account" }).click();
      await expect(page.getByRole("alert")).toHaveText(`${writer.email} already has an account.`);
      await expect(add.getByLabel("E-mail", { exact: true })).toHaveValue(
        writer.email.toUpperCase(),
      );
      // The password typed is never sent back in the page.
      expect(await page.content()).not.toContain(writer.password);

      // The editor signs in with the password the admin chose.
      const member = await memberPage(browser, testInfo, javaScript);
      await signIn(member.page, writer);

      // Make them an admin.
      await entry(page, writer.email)
        .getByRole("button", { name: `Make an admin: ${writer.email}` })
        .click();
      await expectDone(page, `${writer.email} is now an admin`);
      await expect(entry(page, writer.email)).toContainText("Admin · since");

      // Reset their password: their session ends; the new password signs them in.
      const newPassword = `second password of ${tag}`;
      const row = entry(page, writer.email);
      await row.getByText("Reset the password").click();
      await row.getByLabel(`New password for ${writer.email}`).fill(newPassword);
      await review(page, `${label}-reset`, javaScript);
      await row.getByRole("button", { name: `Set the new password: ${writer.email}` }).click();
      await expectDone(page, `${writer.email} has a new password`);
      await member.page.goto("/newsroom");
      await expect(member.page).toHaveURL(/\/newsroom\/sign-in\?next=/);
      await signIn(member.page, { ...writer, password: newPassword });
      // An admin now: the staff page is theirs too.
      expect((await member.page.request.get("/newsroom/staff")).status()).toBe(200);

      // Remove the account, after confirming on a page of its own.
      await entry(page, writer.email)
        .getByRole("link", { name: `Remove…: ${writer.email}` })
        .click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Remove this account?");
      await expect(page.getByRole("main")).toContainText(writer.email);
      await review(page, `${label}-remove`, javaScript);
      await page.getByRole("button", { name: "Remove the account" }).click();
      await expectDone(page, "The account is removed");
      await expect(entry(page, writer.email)).toHaveCount(0);
      await member.page.goto("/newsroom");
      await expect(member.page).toHaveURL(/\/newsroom\/sign-in\?next=/);
      await member.context.close();

      // The audit log tells each change, without a password.
      await page.goto(
        `/newsroom/audit?who=${encodeURIComponent(E2E_STAFF.admin.email)}&kind=staff`,
      );
      const told = (
        await page.getByRole("list", { name: "Entries" }).getByRole("listitem").allTextContents()
      ).filter((line) => line.includes(writer.email));
      expect(told.map((line) => line.replace(/ — .*$/s, ""))).toEqual([
        `${E2E_STAFF.admin.email} removed the account of ${writer.email}, an admin`,
        `${E2E_STAFF.admin.email} reset the password of ${writer.email}, ending 1 session`,
        `${E2E_STAFF.admin.email} made ${writer.email} an admin (was an editor)`,
        `${E2E_STAFF.admin.email} added ${writer.email} as an editor`,
      ]);
      expect(await page.content()).not.toContain(writer.password);
      expect(await page.content()).not.toContain(newPassword);
    });
  });
}

test("an editor is refused the staff accounts and their removal page", async ({ page }) => {
  await signIn(page, E2E_STAFF.editor);
  await expect(page.getByRole("link", { name: "Staff accounts" })).toHaveCount(0);
  for (const address of ["/newsroom/staff", "/newsroom/staff/1/remove"]) {
    expect((await page.request.get(address)).status(), address).toBe(403);
  }
  await page.goto("/newsroom/staff");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not for your role");
});
