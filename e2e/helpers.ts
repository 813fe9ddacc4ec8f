import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { loadContent } from "../server/content/load";

const SITE_NAME = loadContent("content").site.name;

export const MOBILE = "mobile-375";
export const DESKTOP = "desktop-1280";

export function isProject(testInfo: TestInfo, name: string): boolean {
  return testInfo.project.name === name;
}

/** The mobile menu's button; present in the DOM at every width (hidden by CSS at >= 768 px). */
export function menuButton(page: Page) {
  return page.locator('button[aria-controls="mobile-menu"]');
}

/**
 * Waits for React to hydrate: the Menu button gets its aria-expanded attribute only then.
 * Without this, a click could land before the handlers are attached.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", /^(true|false)$/);
}

/** Header with the site name link to /, a main landmark and the footer. */
export async function expectChrome(page: Page): Promise<void> {
  const header = page.locator("body > header");
  await expect(header).toHaveCount(1);
  const home = header.getByRole("link", { name: SITE_NAME, exact: true });
  await expect(home).toBeVisible();
  await expect(home).toHaveAttribute("href", "/");
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("main")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(
    page.getByRole("contentinfo").getByRole("navigation", { name: "Footer" }),
  ).toBeVisible();
}

/** A readable file-name part for a route: "/" -> "home", "/search?q=harbor" -> "search-q-harbor". */
export function slugOf(route: string): string {
  const s = route.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
  return s || "home";
}

/** Splits a list into `parts` runs of nearly equal length, so a few tests can share the routes between workers. */
export function chunk<T>(items: readonly T[], parts: number): T[][] {
  const size = Math.ceil(items.length / parts);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs `check` for each item as its own step on the test's one page, carrying on past failures,
 * then fails the test listing every item that failed.
 */
export async function eachStep<T>(
  items: readonly T[],
  name: (item: T) => string,
  check: (item: T) => Promise<void>,
): Promise<void> {
  const failures: string[] = [];
  for (const item of items) {
    await test
      .step(name(item), () => check(item))
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        failures.push(`${name(item)}:\n${message}`);
      });
  }
  expect(failures, failures.join("\n\n")).toEqual([]);
}

/** Skips every test of the calling file (or describe block) outside the named project. */
export function onlyInProject(name: string, reason: string): void {
  // Playwright reads the fixtures a hook needs from its destructuring pattern; an empty one asks for none.
  // eslint-disable-next-line no-empty-pattern
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== name, reason);
  });
}

/**
 * Draws every card before a full-page screenshot: a screenshot of the whole page does not scroll,
 * so what `content-visibility: auto` keeps undrawn until near the screen (long lists of cards:
 * app/lib/rendered-when-near.ts) would be blank in it, where a reader scrolling sees it drawn.
 */
export async function drawEverything(page: Page): Promise<void> {
  await page.addStyleTag({ content: "* { content-visibility: visible !important; }" });
}

/**
 * Brings a control into view the way a reader scrolling to it would, and waits until it stays
 * put. A jump straight past cards nobody has seen draws them for the first time, and those above
 * may move the control by their difference from the height kept for them
 * (app/lib/rendered-when-near.ts); a click aimed before that lands beside it. The page is brought
 * to the front first: a tab in the background draws nothing until it is shown.
 */
export async function scrollToSettled(target: Locator): Promise<void> {
  await target.page().bringToFront();
  await target.scrollIntoViewIfNeeded();
  await untilStill(target);
}

/**
 * Waits until `target` is where it was a moment before: a smooth scroll (the slider's buttons) or a
 * layout change has ended, so a box measured now is where a reader sees it.
 */
export async function untilStill(target: Locator): Promise<void> {
  let last = "";
  await expect
    .poll(async () => {
      const box = JSON.stringify(await target.boundingBox());
      const still = box === last;
      last = box;
      return still;
    })
    .toBe(true);
}
