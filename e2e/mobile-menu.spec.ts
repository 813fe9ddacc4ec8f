import { expect, test, type Locator, type Page } from "@playwright/test";
import { MOBILE, onlyInProject, waitForHydration } from "./helpers";

/** The mobile menu's links of spec §2, in order. */
const MENU_HREFS = [
  "/",
  "/local-news",
  "/national-news",
  "/world-news",
  "/politics",
  "/business",
  "/technology",
  "/sports",
  "/arts-culture",
  "/opinion",
  "/automotive",
  "/real-estate",
  "/health",
  "/food",
  "/lifestyle",
  "/archives",
  "/events",
  "/blog",
  "/partners",
  "/faq",
  "/contact-us",
];

onlyInProject(MOBILE, "the mobile menu is checked at 375 px");

function theMenuButton(page: Page): Locator {
  return page.getByRole("button", { name: "Menu", exact: true });
}

/** The menu the button controls, found through its aria-controls. */
async function theMenu(page: Page): Promise<Locator> {
  const id = await theMenuButton(page).getAttribute("aria-controls");
  expect(id, "the Menu button names the menu it controls").toBeTruthy();
  const menu = page.locator(`[id="${id}"]`);
  await expect(menu).toHaveCount(1);
  return menu;
}

async function expectMenuLinks(menu: Locator) {
  const links = menu.getByRole("link");
  await expect(links).toHaveCount(MENU_HREFS.length);
  const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  expect(hrefs).toEqual(MENU_HREFS);
  for (let i = 0; i < MENU_HREFS.length; i++) await expect(links.nth(i)).toBeVisible();
  // Two columns: the link boxes line up on exactly two left edges, both inside the viewport.
  const boxes = await links.evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().toJSON()),
  );
  const lefts = [...new Set(boxes.map((b) => Math.round(b.left)))].sort((a, b) => a - b);
  expect(lefts, "distinct left edges of the menu links").toHaveLength(2);
  for (const box of boxes) expect(box.right).toBeLessThanOrEqual(375);
  // Filled row by row: first link left, second right.
  expect(Math.round(boxes[0].left)).toBe(lefts[0]);
  expect(Math.round(boxes[1].left)).toBe(lefts[1]);
}

test.describe("with JavaScript", () => {
  test("the Menu button opens the two-column menu; choosing a link navigates and closes it", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main", exact: true })).toBeHidden();
    const button = theMenuButton(page);
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute("aria-controls", "mobile-menu");
    const menu = await theMenu(page);
    await expect(menu).toBeHidden();

    await waitForHydration(page);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expectMenuLinks(menu);

    await menu.getByRole("link", { name: "Business", exact: true }).click();
    await expect(page).toHaveURL("/business");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business & Finance");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // It opens again on the new page, with the current page marked.
    await button.click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link", { name: "Business", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(menu.getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute(
      "aria-current",
      "page",
    );
    // The last link navigates too.
    await menu.getByRole("link", { name: "Contact Us", exact: true }).click();
    await expect(page).toHaveURL("/contact-us");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
  });

  test("Escape and a second press of the button close the menu", async ({ page }) => {
    await page.goto("/local-news");
    await waitForHydration(page);
    const button = theMenuButton(page);
    const menu = await theMenu(page);

    await button.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    await button.click();
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await button.click();
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(page).toHaveURL("/local-news");
  });

  test("keyboard: Tab reaches the button, Enter opens, Tab walks the links in order, then the search box", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const button = theMenuButton(page);
    const menu = await theMenu(page);

    // The skip link and the site name come first; the button is reached within a few presses.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      if (await button.evaluate((el) => el === document.activeElement)) break;
    }
    await expect(button).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "true");

    for (const href of MENU_HREFS) {
      await page.keyboard.press("Tab");
      const focused = page.locator(":focus");
      await expect(focused, `Tab should reach the ${href} link`).toHaveAttribute("href", href);
      // Focused links are inside the open menu.
      expect(await focused.evaluate((el) => el.closest("#mobile-menu") !== null)).toBe(true);
    }
    await page.keyboard.press("Tab");
    const search = menu.getByRole("searchbox");
    await expect(search).toBeFocused();
    await page.keyboard.type("harbor");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/search?q=harbor");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("harbor");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
  });

  test("the menu's search box has placeholder Search and leads to the results", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const menu = await theMenu(page);
    await theMenuButton(page).click();
    const search = menu.getByRole("searchbox", { name: "Search articles" });
    await expect(search).toBeVisible();
    await expect(search).toHaveAttribute("placeholder", "Search");
    await search.fill("harbor");
    await menu.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL("/search?q=harbor");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("harbor");
    await expect(page.getByRole("main").getByRole("searchbox")).toHaveValue("harbor");
    await expect(menu).toBeHidden();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the native popover opens the menu; links and search work", async ({ page }) => {
    await page.goto("/");
    const button = theMenuButton(page);
    const menu = await theMenu(page);
    await expect(menu).toBeHidden();
    await button.click();
    await expect(menu).toBeVisible();
    await expectMenuLinks(menu);

    await menu.getByRole("link", { name: "Local News", exact: true }).click();
    await expect(page).toHaveURL("/local-news");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Local News");
    await expect(menu).toBeHidden();

    await button.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    await button.click();
    const search = menu.getByRole("searchbox");
    await expect(search).toHaveAttribute("placeholder", "Search");
    await search.fill("harbor");
    await search.press("Enter");
    await expect(page).toHaveURL("/search?q=harbor");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("harbor");
    await expect(menu).toBeHidden();
  });
});
