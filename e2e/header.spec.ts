import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, menuButton, onlyInProject, waitForHydration } from "./helpers";

/** The desktop header links of spec §2, in order. Arts & Culture shows only on extra-wide screens. */
const HEADER_LINKS = [
  { label: "Local News", href: "/local-news" },
  { label: "National News", href: "/national-news" },
  { label: "World News", href: "/world-news" },
  { label: "Politics", href: "/politics" },
  { label: "Business", href: "/business" },
  { label: "Technology", href: "/technology" },
  { label: "Sports", href: "/sports" },
  { label: "Arts & Culture", href: "/arts-culture", extraWide: true },
  { label: "Opinion", href: "/opinion" },
];

onlyInProject(DESKTOP, "the desktop header is checked at set widths in the desktop project");

function mainNav(page: Page) {
  return page.getByRole("navigation", { name: "Main", exact: true });
}

async function expectHeaderLinks(page: Page, extraWide: boolean) {
  const nav = mainNav(page);
  await expect(nav).toBeVisible();
  const shown = HEADER_LINKS.filter((l) => extraWide || !l.extraWide);
  // Role queries see only what is rendered: exactly these links, in this order.
  const visibleLinks = nav.getByRole("link");
  await expect(visibleLinks).toHaveText(shown.map((l) => l.label));
  for (const [i, link] of shown.entries()) {
    await expect(visibleLinks.nth(i)).toBeVisible();
    await expect(visibleLinks.nth(i)).toHaveAttribute("href", link.href);
  }
  // All links are in the markup, in order; those not shown are hidden, not missing.
  const allLinks = nav.locator("a");
  await expect(allLinks).toHaveCount(HEADER_LINKS.length);
  for (const [i, link] of HEADER_LINKS.entries()) {
    await expect(allLinks.nth(i)).toHaveAttribute("href", link.href);
    if (extraWide || !link.extraWide) await expect(allLinks.nth(i)).toBeVisible();
    else await expect(allLinks.nth(i)).toBeHidden();
  }
  // The links fit on one row inside the viewport.
  const boxes = await visibleLinks.evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect().toJSON()),
  );
  const width = page.viewportSize()?.width ?? 0;
  for (const box of boxes) {
    expect(box.top).toBe(boxes[0].top);
    expect(box.right).toBeLessThanOrEqual(width);
  }
}

async function searchFromHeader(page: Page, query: string) {
  const button = page.locator("header").getByRole("button", { name: "Search", exact: true });
  await expect(button).toBeVisible();
  const box = page.locator("#header-search");
  await expect(box).toBeHidden();
  await expect(box.getByRole("searchbox", { includeHidden: true })).not.toBeFocused();
  await button.click();
  await expect(box).toBeVisible();
  const input = box.getByRole("searchbox");
  await expect(input).toBeVisible();
  // Opening the box puts the reader in it, ready to type.
  await expect(input).toBeFocused();
  await input.fill(query);
  await input.press("Enter");
  await expect(page).toHaveURL(`/search?q=${encodeURIComponent(query)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(query);
  await expect(page.getByRole("main").getByRole("searchbox")).toHaveValue(query);
  // The search box gets out of the way of the results.
  await expect(box).toBeHidden();
}

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("Main navigation shows all nine links, Arts & Culture included; no Menu button", async ({
    page,
  }) => {
    await page.goto("/");
    await expectHeaderLinks(page, true);
    await expect(menuButton(page)).toBeHidden();
  });

  test("the search button opens the search box and a search lands on the results", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    await searchFromHeader(page, "harbor");
  });

  test("a header link navigates and is marked as the current page", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await mainNav(page).getByRole("link", { name: "Arts & Culture" }).click();
    await expect(page).toHaveURL("/arts-culture");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Arts & Culture");
    await expect(mainNav(page).getByRole("link", { name: "Arts & Culture" })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });
});

test("the site name shows whole in the header, from the narrowest phone up", async ({ page }) => {
  await page.goto("/");
  const name = page.locator("header").getByRole("link", { name: "San Diego Local Ledger" });
  for (const width of [320, 360, 375, 768, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    // Cut short with an ellipsis, its text would be wider than its box.
    const cut = await name.evaluate((link) => link.scrollWidth > link.clientWidth);
    expect(cut, `site name cut at ${width} px`).toBe(false);
  }
});

test("the header, footer, story cards and slides, rendered once on the server, hydrate without a mismatch and navigate in the page", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  for (const path of ["/", "/local-news", "/archives", "/faq"]) {
    await page.goto(path);
    await waitForHydration(page);
  }
  // An article's page, with its related stories' cards.
  await page.goto("/");
  await page.goto(
    (await page.locator('main a[href^="/article/"]').last().getAttribute("href")) ?? "",
  );
  await waitForHydration(page);
  // A document that stays the same document: the click is handled by React Router, not the browser.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await mainNav(page).getByRole("link", { name: "Business" }).click();
  await expect(page).toHaveURL("/business");
  await expect(mainNav(page).getByRole("link", { name: "Business" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("contentinfo").getByRole("link", { name: "About Us" }).click();
  await expect(page).toHaveURL("/about-us");
  expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
  expect(errors).toEqual([]);
});

test.describe("at 1024 px", () => {
  test.use({ viewport: { width: 1024, height: 800 } });

  test("Main navigation shows eight links, Arts & Culture hidden; no Menu button", async ({
    page,
  }) => {
    await page.goto("/");
    await expectHeaderLinks(page, false);
    await expect(menuButton(page)).toBeHidden();
  });

  test("the search box opens and searches from a category page", async ({ page }) => {
    await page.goto("/local-news");
    await waitForHydration(page);
    await searchFromHeader(page, "harbor");
  });
});

test.describe("at 768 px", () => {
  test.use({ viewport: { width: 768, height: 800 } });

  test("the Main navigation, eight links on one row, replaces the Menu button", async ({
    page,
  }) => {
    await page.goto("/");
    await expectHeaderLinks(page, false);
    await expect(menuButton(page)).toBeHidden();
    await expect(
      page.locator("header").getByRole("button", { name: "Search", exact: true }),
    ).toBeVisible();
  });
});
