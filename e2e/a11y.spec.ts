import { expectNoSeriousViolations } from "./axe";
import { expect, test } from "@playwright/test";
import { chunk, DESKTOP, eachStep, MOBILE, menuButton, waitForHydration } from "./helpers";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "./routes";

const ROUTES = [...OK_ROUTES, ...NOT_FOUND_ROUTES];

test.describe("axe finds no serious or critical violations", () => {
  // Both projects, so every route is scanned at 375 px and at 1280 px.
  for (const [i, routes] of chunk(ROUTES, 7).entries()) {
    test(`routes ${i + 1}: ${routes.join(" ")}`, async ({ page }) => {
      // A scan takes a few seconds on a busy machine.
      test.setTimeout(30_000 + routes.length * 15_000);
      await eachStep(
        routes,
        (route) => route,
        async (route) => {
          await page.goto(route);
          await waitForHydration(page);
          await expectNoSeriousViolations(page, route);
        },
      );
    });
  }

  test("an article page and filtered archives", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto("/world-news");
    const href = await page.locator('main a[href^="/article/"]').first().getAttribute("href");
    expect(href).toBeTruthy();
    for (const route of [href ?? "/", "/archives?category=politics&year=2024&page=1"]) {
      await page.goto(route);
      await waitForHydration(page);
      await expectNoSeriousViolations(page, route);
    }
  });

  test("with the mobile menu open", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== MOBILE, "the menu button shows only below 768 px");
    await page.goto("/");
    await waitForHydration(page);
    await menuButton(page).click();
    await expect(page.locator("#mobile-menu")).toBeVisible();
    await expectNoSeriousViolations(page, "/ with the mobile menu open");
  });

  test("with the header search box open", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "the search button shows only from 768 px");
    await page.goto("/");
    await waitForHydration(page);
    await page.locator("header").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.locator("#header-search")).toBeVisible();
    await expectNoSeriousViolations(page, "/ with the search box open");
  });
});
