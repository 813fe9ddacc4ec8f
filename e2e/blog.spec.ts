import { expectNoSeriousViolations } from "./axe";
import { expect, test, type Page } from "@playwright/test";
import { expectChrome, waitForHydration } from "./helpers";

// The e2e server reads the sample posts in content/blog (the local source, the default).
const COUNCIL = {
  path: "/blog/how-to-attend-a-san-diego-city-council-meeting",
  title: "How to Attend a San Diego City Council Meeting and Speak Up",
};
const NEWEST_TITLE = "How Our Newsroom Picks Stories and How You Can Help";

function postTitles(page: Page) {
  return page.getByRole("main").getByRole("article").getByRole("heading", { level: 2 });
}

function pagination(page: Page) {
  return page.getByRole("navigation", { name: "Blog pages" });
}

test.describe("blog list", () => {
  test("page 1 shows ten posts, Previous disabled; Next leads to page 2 with three, Next disabled", async ({
    page,
  }) => {
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    await expectChrome(page);
    await expect(page.getByRole("heading", { level: 1, name: "Blog", exact: true })).toBeVisible();
    await expect(postTitles(page)).toHaveCount(10);
    await expect(postTitles(page).first()).toHaveText(NEWEST_TITLE);

    const nav = pagination(page);
    await expect(nav.getByText("Previous", { exact: true })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await expect(nav.getByRole("link", { name: "Previous" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Page 2" })).not.toHaveAttribute("aria-current");

    await waitForHydration(page);
    await nav.getByRole("link", { name: "Next", exact: true }).click();
    await expect(page).toHaveURL(/\/blog\?page=2$/);
    await expect(postTitles(page)).toHaveCount(3);
    await expect(postTitles(page).last()).toHaveText(
      "Best Tide Pools in San Diego: A Family Guide to Low-Tide Exploring",
    );
    await expect(nav.getByText("Next", { exact: true })).toHaveAttribute("aria-disabled", "true");
    await expect(nav.getByRole("link", { name: "Next" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Previous", exact: true }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(postTitles(page)).toHaveCount(10);
  });

  test("posts show their round image when they have one", async ({ page }) => {
    await page.goto("/blog");
    const first = page.getByRole("main").getByRole("article").first();
    const image = first.getByRole("img", { name: NEWEST_TITLE });
    await expect(image).toHaveAttribute("loading", "lazy");
    const box = await image.boundingBox();
    expect(box?.width).toBeGreaterThan(0);
    expect(box?.width).toBe(box?.height);
    // Round and centred: the picture covers its circle and is cut evenly on both sides, whatever
    // its own shape (a 16:9 picture loses equal strips left and right).
    expect(
      await image.evaluate((img) => {
        const style = getComputedStyle(img);
        const round =
          Number.parseFloat(style.borderRadius) >= img.getBoundingClientRect().width / 2;
        return [round, style.objectFit, style.objectPosition];
      }),
    ).toEqual([true, "cover", "50% 50%"]);
    const voting = page.getByRole("main").getByRole("article").nth(3);
    await expect(voting).toContainText("Voting in San Diego County");
    await expect(voting.getByRole("img")).toHaveCount(0);
  });

  test("?page=99 answers 404 with a way back", async ({ page }) => {
    const response = await page.goto("/blog?page=99");
    expect(response?.status()).toBe(404);
    await expectChrome(page);
    await expect(page.getByRole("main")).toContainText(
      "Oops! This page of the blog does not exist.",
    );
    await expect(
      page.getByRole("main").getByRole("link", { name: "Back to Blog" }),
    ).toHaveAttribute("href", "/blog");
  });
});

test.describe("blog post", () => {
  test("clicking a post opens it with back link, title, long date, byline, topics and video", async ({
    page,
  }) => {
    await page.goto("/blog");
    await waitForHydration(page);
    await page.getByRole("main").getByRole("link", { name: COUNCIL.title }).click();
    await expect(page).toHaveURL(new RegExp(`${COUNCIL.path}$`));

    const main = page.getByRole("main");
    await expect(main.getByRole("link", { name: "Back to Blog" })).toHaveAttribute("href", "/blog");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText(COUNCIL.title);
    await expect(main.locator("time")).toHaveText("June 10, 2025");
    await expect(main.getByText("By Tomás Herrera (sample)", { exact: true })).toBeVisible();
    await expect(
      main.getByRole("heading", { level: 2, name: "Find the schedule and the agenda" }),
    ).toBeVisible();
    await expect(main.getByRole("link", { name: "Office of the City Clerk" })).toHaveAttribute(
      "rel",
      "noopener noreferrer",
    );
    // A site image is on no Pinterest board.
    await expect(main.getByRole("link", { name: /View on Pinterest/ })).toHaveCount(0);

    const video = main.getByRole("region", { name: "Watch the Video" });
    await expect(video).toBeVisible();
    await expect(video.getByRole("link", { name: `Play video: ${COUNCIL.title}` })).toHaveAttribute(
      "href",
      "https://www.youtube.com/watch?v=Cc4Agenda_9",
    );

    const topics = main.getByRole("region", { name: "Topics" }).getByRole("listitem");
    await expect(topics).toHaveText(["city council", "public comment", "local government"]);
    await expect(page).toHaveTitle(new RegExp(`^${COUNCIL.title} \\| `));

    await main.getByRole("link", { name: "Back to Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(postTitles(page)).toHaveCount(10);
  });

  test("a post without a video has no video block", async ({ page }) => {
    await page.goto("/blog/san-diego-beach-water-quality");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(main.getByText("Watch the Video")).toHaveCount(0);
    await expect(main.getByRole("region", { name: "Topics" }).getByRole("listitem")).toHaveText([
      "beaches",
      "water quality",
      "surf",
    ]);
  });

  test("an unknown slug answers 404: Error loading blog: Blog not found, Back to Blog", async ({
    page,
  }) => {
    const response = await page.goto("/blog/no-such-post");
    expect(response?.status()).toBe(404);
    const main = page.getByRole("main");
    await expect(
      main.getByText("Error loading blog: Blog not found", { exact: true }),
    ).toBeVisible();
    await waitForHydration(page);
    await main.getByRole("link", { name: "Back to Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the list pages and a post open by plain links", async ({ page }) => {
    await page.goto("/blog");
    await pagination(page).getByRole("link", { name: "Page 2" }).click();
    await expect(page).toHaveURL(/\/blog\?page=2$/);
    await expect(postTitles(page)).toHaveCount(3);
    await page
      .getByRole("main")
      .getByRole("link", { name: /Best Tide Pools/ })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Best Tide Pools in San Diego: A Family Guide to Low-Tide Exploring",
    );
    await expect(page.getByRole("main").locator("time")).toHaveText("January 18, 2025");
  });
});

test("axe finds no serious or critical violations on /blog and a post", async ({ page }) => {
  test.setTimeout(60_000);
  for (const route of ["/blog", "/blog?page=2", COUNCIL.path]) {
    await page.goto(route);
    await waitForHydration(page);
    await expectNoSeriousViolations(page, route);
  }
});
