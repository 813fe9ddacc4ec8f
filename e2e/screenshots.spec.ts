import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { drawEverything, menuButton, MOBILE, waitForHydration } from "./helpers";

// Full-page pictures for people to look at; nothing is compared pixel by pixel.
const SHOTS = [
  { name: "home", route: "/" },
  { name: "local-news", route: "/local-news" },
  { name: "archives", route: "/archives" },
  { name: "about-us", route: "/about-us" },
  { name: "faq", route: "/faq" },
  { name: "blog", route: "/blog" },
  { name: "contact-us", route: "/contact-us" },
  { name: "search", route: "/search?q=harbor" },
  { name: "newsletter", route: "/newsletter" },
  { name: "not-found", route: "/no-such-page" },
];

/**
 * Loads every image (lazy ones too: those in a sideways strip such as the slider never come near the
 * viewport by scrolling down), then waits until each has finished.
 */
async function settle(page: Page) {
  await page.evaluate(async () => {
    for (const img of Array.from(document.images)) img.loading = "eager";
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
}

test("full-page screenshots", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const dir = path.join(testInfo.project.outputDir, "screenshots");
  const file = (name: string) => path.join(dir, `${testInfo.project.name}-${name}.png`);

  for (const { name, route } of SHOTS) {
    await test.step(name, async () => {
      await page.goto(route);
      await waitForHydration(page);
      await settle(page);
      await drawEverything(page);
      await page.screenshot({ path: file(name), fullPage: true });
    });
  }

  if (testInfo.project.name === MOBILE) {
    await test.step("mobile-menu", async () => {
      await page.goto("/");
      await waitForHydration(page);
      await menuButton(page).click();
      await expect(page.locator("#mobile-menu")).toBeVisible();
      // The open menu is a fixed panel over the page: the window shows it as a reader sees it.
      await page.screenshot({ path: file("mobile-menu") });
    });
  }
});
