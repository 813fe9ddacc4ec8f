import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe";
import { waitForHydration } from "./helpers";
import { linkIn, mailTo } from "./outbox";

/**
 * The newsletter as a reader meets it, with and without JavaScript: sign up, find the confirmation
 * mail (the e2e server writes mail to its outbox folder), open its link, confirm with the page's
 * button, then leave from the unsubscribe link. The pages are scanned with axe and photographed.
 */
let nextAddress = 1;
test.beforeEach(async ({ page }, testInfo) => {
  const project = testInfo.project.name === "mobile-375" ? 1 : 2;
  await page.setExtraHTTPHeaders({
    "X-Forwarded-For": `203.0.113.${project * 100 + (nextAddress++ % 100)}`,
  });
});

async function signUpOnHome(page: Page, email: string, javaScript: boolean) {
  await page.goto("/");
  if (javaScript) await waitForHydration(page);
  const box = page.locator("#newsletter");
  await box.getByLabel("Email address").fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  const confirmation = javaScript
    ? page.getByRole("status").filter({ hasText: "Thanks for subscribing!" })
    : page.locator("#newsletter").getByRole("status");
  await expect(confirmation).toContainText("Please confirm from your inbox");
  // One message, the toast's and the box's after a signup without JavaScript alike.
  await expect(confirmation).not.toContainText("added");
}

for (const javaScript of [true, false]) {
  test.describe(`newsletter mail ${javaScript ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: javaScript });

    test("signup, confirmation mail, confirm page, subscribed, unsubscribe page", async ({
      page,
    }, testInfo) => {
      const email = `mail-${testInfo.project.name}-${javaScript ? "js" : "nojs"}-${Date.now()}@example.com`;
      await signUpOnHome(page, email, javaScript);

      const confirmation = await mailTo(email);
      expect(confirmation.subject).toMatch(/^Confirm your subscription to /);
      await page.goto(linkIn(confirmation, "/newsletter/confirm"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your subscription");
      // axe runs as a script in the page: scanned in the run with JavaScript.
      if (javaScript) await expectNoSeriousViolations(page, "confirm page");
      await page.screenshot({
        path: testInfo.outputPath(`confirm-${javaScript ? "js" : "nojs"}.png`),
        fullPage: true,
      });
      if (javaScript) await waitForHydration(page);
      await page.getByRole("button", { name: "Confirm my subscription" }).click();
      await expect(page).toHaveURL(/\/newsletter\/confirm\?confirmed=1$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're subscribed");
      await page.screenshot({
        path: testInfo.outputPath(`confirmed-${javaScript ? "js" : "nojs"}.png`),
        fullPage: true,
      });

      // The link works once.
      await page.goto(linkIn(confirmation, "/newsletter/confirm"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link no longer works");

      await page.goto(linkIn(confirmation, "/newsletter/unsubscribe"));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Unsubscribe from the newsletter",
      );
      if (javaScript) await expectNoSeriousViolations(page, "unsubscribe page");
      await page.screenshot({
        path: testInfo.outputPath(`unsubscribe-${javaScript ? "js" : "nojs"}.png`),
        fullPage: true,
      });
      if (javaScript) await waitForHydration(page);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await expect(page).toHaveURL(/\/newsletter\/unsubscribe\?token=[\w.-]+$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're unsubscribed");
      if (javaScript) await expectNoSeriousViolations(page, "unsubscribed page");
      await page.screenshot({
        path: testInfo.outputPath(`unsubscribed-${javaScript ? "js" : "nojs"}.png`),
        fullPage: true,
      });
      // Changed their mind: their own mail's page takes them back, with no confirmation mail.
      await page.getByRole("button", { name: "Subscribe again" }).click();
      await expect(page.getByText("You're subscribed again")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Unsubscribe from the newsletter",
      );
    });
  });
}
