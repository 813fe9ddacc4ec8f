import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe";
import { waitForHydration } from "./helpers";

/**
 * The newsletter box, the contact form and search, as readers use them: with JavaScript (no reload)
 * and without it (a POST, a redirect, a message). Every test comes from its own address, as the
 * e2e server trusts one proxy hop, so the per-address rate limits never meet.
 */
let nextAddress = 1;
test.beforeEach(async ({ page }, testInfo) => {
  const project = testInfo.project.name === "mobile-375" ? 1 : 2;
  await page.setExtraHTTPHeaders({
    "X-Forwarded-For": `192.0.2.${project * 100 + (nextAddress++ % 100)}`,
  });
});

const uniqueEmail = (testInfo: { project: { name: string }; testId: string }) =>
  `reader-${testInfo.project.name}-${testInfo.testId.slice(0, 8)}-${Date.now()}@example.com`;

function newsletterBox(page: Page) {
  return page.locator("#newsletter");
}

test.describe("newsletter with JavaScript", () => {
  test("subscribing shows the toast for a few seconds and clears the field, without a reload", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await waitForHydration(page);
    const box = newsletterBox(page);
    const email = box.getByLabel("Email address");
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));

    await box.getByRole("button", { name: "Subscribe" }).click();
    // Empty: the browser's own check stops it; nothing is sent and no toast shows.
    await expect(page.getByText("Thanks for subscribing!")).toHaveCount(0);

    await email.fill(uniqueEmail(testInfo));
    await box.getByRole("button", { name: "Subscribe" }).click();
    const toast = page.getByRole("status").filter({ hasText: "Thanks for subscribing!" });
    await expect(toast).toBeVisible();
    // One message: the address waits for its confirmation, so the toast never says "added".
    await expect(toast).toContainText("Please confirm from your inbox");
    await expect(toast).not.toContainText("added");
    await expect(email).toHaveValue("");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(new URL(page.url()).pathname).toBe("/");
    // It goes by itself after about four to five seconds.
    await expect(toast).toBeHidden({ timeout: 8_000 });
  });

  test("a refused address is explained in the box", async ({ page }) => {
    await page.goto("/local-events");
    await waitForHydration(page);
    const box = newsletterBox(page);
    // Past the browser's check (it accepts "a@b"), the server's stricter one refuses it.
    await box.getByLabel("Email address").fill("someone@localhost");
    await box.getByRole("button", { name: "Subscribe" }).click();
    await expect(box.getByRole("alert")).toHaveText(
      "Please enter a valid email address, like name@example.com.",
    );
    await expect(box.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
  });
});

test.describe("newsletter without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form posts, and the page comes back with the confirmation", async ({
    page,
  }, testInfo) => {
    await page.goto("/local-events");
    const box = newsletterBox(page);
    await box.getByLabel("Email address").fill(uniqueEmail(testInfo));
    await box.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/local-events\?subscribed=1#newsletter$/);
    await expect(newsletterBox(page).getByRole("status")).toContainText("Thanks for subscribing!");
  });

  test("a refused address lands on the newsletter page with the reason", async ({ page }) => {
    await page.goto("/");
    await newsletterBox(page).getByLabel("Email address").fill("someone@localhost");
    await newsletterBox(page).getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter$/);
    await expect(page.getByRole("heading", { level: 1, name: "Newsletter" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(
      "Please enter a valid email address, like name@example.com.",
    );
    await expect(newsletterBox(page).getByLabel("Email address")).toHaveValue("someone@localhost");
  });
});

async function fillContactForm(
  page: Page,
  testInfo: { project: { name: string }; testId: string },
) {
  await page.getByLabel("Name", { exact: true }).fill("Ana Reader");
  await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail(testInfo));
  await page
    .getByLabel("Message", { exact: true })
    .fill("The crosswalk signal at 30th and University is out.");
}

test.describe("contact form", () => {
  test("with JavaScript: sends without a reload and thanks the reader", async ({
    page,
  }, testInfo) => {
    await page.goto("/contact-us?category=correction");
    await waitForHydration(page);
    await expect(page.getByLabel("What is it about?")).toHaveValue("correction");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await fillContactForm(page, testInfo);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("status")).toContainText(
      "Thank you, your message has reached our newsroom.",
    );
    await expect(page).toHaveURL(/\/contact-us\?sent=1$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  });

  test("the server's checks name each field, and focus can reach them", async ({ page }) => {
    await page.goto("/contact-us");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Ana");
    await page.getByLabel("E-mail", { exact: true }).fill("ana@localhost");
    await page.getByLabel("Message", { exact: true }).fill("Too short");
    // Skip the browser's own checks to see the server's answer.
    await page.locator("form[method=post]").evaluate((form) => {
      (form as HTMLFormElement).noValidate = true;
    });
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("alert").first()).toHaveText(
      "Please correct the 2 fields marked below.",
    );
    const email = page.getByLabel("E-mail", { exact: true });
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(
      "Please enter a valid email address, like name@example.com.",
    );
    await expect(page.getByLabel("Message", { exact: true })).toHaveAccessibleDescription(
      "Please write a message of at least 10 characters.",
    );
    await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid");
    await expectNoSeriousViolations(page, "contact form with errors");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("the form posts and the page thanks the reader", async ({ page }, testInfo) => {
      await page.goto("/contact-us");
      await fillContactForm(page, testInfo);
      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page).toHaveURL(/\/contact-us\?sent=1$/);
      await expect(page.getByRole("status")).toContainText("Thank you");
    });
  });
});

test.describe("search", () => {
  test("marks the matched words and links each result", async ({ page }) => {
    await page.goto("/search?q=harbor");
    const results = page.getByRole("main").getByRole("listitem");
    expect(await results.count()).toBeGreaterThan(0);
    const marks = page.getByRole("main").locator("mark");
    expect(await marks.count()).toBeGreaterThan(0);
    for (const text of await marks.allTextContents()) expect(text.toLowerCase()).toMatch(/^harbor/);
    const first = results.first().getByRole("link").first();
    await first.click();
    await expect(page).toHaveURL(/\/(article|blog)\//);
  });

  test("finds blog posts too, and says so when nothing matches", async ({ page }) => {
    await page.goto("/search?q=tide+pools");
    await expect(page.getByRole("main").getByText("Blog", { exact: true }).first()).toBeVisible();
    await page.goto("/search?q=zeppelinography");
    await expect(page.getByRole("status")).toContainText(
      "No stories or blog posts match “zeppelinography”.",
    );
    await expectNoSeriousViolations(page, "search without results");
  });

  test("an empty query shows the box and the latest stories", async ({ page }) => {
    await page.goto("/search");
    await expect(page.getByRole("heading", { name: "Latest stories" })).toBeVisible();
    await expect(page.getByRole("searchbox").last()).toBeVisible();
  });
});
