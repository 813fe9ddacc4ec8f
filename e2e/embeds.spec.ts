import { expect, test, type Locator, type Page } from "@playwright/test";
import { sampleEmbeds } from "../scripts/sample-site.js";
import { expectNoSeriousViolations } from "./axe";
import { waitForHydration } from "./helpers";

/**
 * The spec's embeds out of the box. The tests' site runs with the demo's sample embeds (pages of
 * the site itself, scripts/sample-site.js); the hostile site runs with none set and a video address
 * with no video id (scripts/e2e-server.js), so both states are seen in a browser.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const SAMPLES = sampleEmbeds(`http://127.0.0.1:${PORT}`);
const UNSET_SITE = `http://127.0.0.1:${PORT + 1}`;

const FRAMES = [
  {
    route: "/",
    section: "Image News Feed",
    title: "Image news feed",
    url: SAMPLES.IMAGE_FEED_EMBED_URL,
    // The spec's image-board frame height.
    height: 1200,
    sample: "Sample image news feed",
  },
  {
    route: "/events",
    section: "Holiday Calendar",
    title: "Holiday calendar",
    url: SAMPLES.HOLIDAY_CALENDAR_EMBED_URL,
    height: 600,
    sample: "Sample holiday calendar",
  },
  {
    route: "/local-events",
    section: "Community Feed",
    title: "Community events feed",
    url: SAMPLES.FEED_WALL_EMBED_URL,
    height: 800,
    sample: "Sample community events feed",
  },
];

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

function region(page: Page, name: string): Locator {
  return page.getByRole("main").getByRole("region", { name, exact: true });
}

/** An embed's block takes room on the page: no gap where it should be. */
async function expectBlock(block: Locator, minHeight: number) {
  await expect(block).toBeVisible();
  const box = await block.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(minHeight);
}

test.describe("a configured embed loads only when a reader asks for it", () => {
  for (const frame of FRAMES) {
    test(`${frame.route}: ${frame.section}`, async ({ page }) => {
      await page.addInitScript(() => {
        window.cspViolations = [];
        document.addEventListener("securitypolicyviolation", (event) => {
          window.cspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
        });
      });
      const requested: string[] = [];
      page.on("request", (request) => {
        if (request.url() === frame.url) requested.push(request.url());
      });
      await page.goto(frame.route);
      await waitForHydration(page);
      const block = region(page, frame.section);
      await block.scrollIntoViewIfNeeded();
      await expectBlock(block.locator("[data-embed-card]"), 200);
      await expect(block.locator("iframe")).toHaveCount(0);
      const show = block.getByRole("link", { name: `Show the ${frame.title.toLowerCase()}` });
      await expect(show).toHaveAttribute("href", frame.url);
      expect(requested, "nothing of the provider's loads before the click").toEqual([]);
      await expectNoSeriousViolations(page, `${frame.route} embed card`, "[data-embed-card]");

      await show.click();
      const iframe = block.locator("iframe");
      await expect(iframe).toHaveAttribute("src", frame.url);
      await expect(iframe).toHaveAttribute("title", frame.title);
      await expect(iframe).toBeFocused();
      const box = await iframe.boundingBox();
      expect(Math.round(box?.height ?? 0)).toBe(frame.height);
      await expect(block.frameLocator("iframe").getByRole("heading", { level: 1 })).toHaveText(
        frame.sample,
      );
      await expect(block.getByRole("link", { name: /on its own page$/ })).toHaveAttribute(
        "href",
        frame.url,
      );
      expect(await page.evaluate(() => window.cspViolations ?? [])).toEqual([]);
    });
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    for (const frame of FRAMES) {
      test(`${frame.route}: ${frame.section} is a plain link to the widget's page`, async ({
        page,
      }) => {
        await page.goto(frame.route);
        const block = region(page, frame.section);
        await expect(block.locator("iframe")).toHaveCount(0);
        // Followed with Enter: a click could land beside it while the page's lazily drawn
        // sections above settle (see e2e/category.spec.ts, toggle).
        await block
          .getByRole("link", { name: `Show the ${frame.title.toLowerCase()}` })
          .press("Enter");
        await expect(page).toHaveURL(frame.url);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(frame.sample);
      });
    }
  });
});

test.describe("with no embeds configured, every block stays with a way on", () => {
  test.use({ baseURL: UNSET_SITE });

  test("/: a video address with no id shows the video as unavailable", async ({ page }) => {
    await page.goto("/");
    const video = region(page, "Featured Video");
    await video.scrollIntoViewIfNeeded();
    const player = video.locator('[data-video-state="unavailable"]');
    await expectBlock(player, 150);
    await expect(player).toContainText("Video unavailable");
    await expect(video.locator("iframe")).toHaveCount(0);
    await expect(video.locator('a[href*="youtube"]')).toHaveCount(0);
    await expect(player.getByRole("link")).toHaveAttribute("href", "/blog");
    await expectNoSeriousViolations(page, "unavailable video", "[data-video-state]");
  });

  const FALLBACKS = [
    { route: "/", section: "Image News Feed", link: "Local News", href: "/local-news" },
    {
      route: "/events",
      section: "Holiday Calendar",
      link: "federal holiday",
      href: "https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/",
    },
    { route: "/local-events", section: "Community Feed", link: "Events page", href: "/events" },
  ];
  for (const { route, section, link, href } of FALLBACKS) {
    test(`${route}: ${section} keeps its block with a link`, async ({ page }) => {
      await page.goto(route);
      const block = region(page, section);
      const card = block.locator("[data-embed-card]");
      await expectBlock(card, 200);
      await expect(card).not.toContainText(/not available/i);
      await expect(block.locator("iframe")).toHaveCount(0);
      await expect(card.getByRole("link", { name: link, exact: true })).toHaveAttribute(
        "href",
        href,
      );
      await expectNoSeriousViolations(page, `${route} embed fallback`, "[data-embed-card]");
    });
  }
});
