import { expect, test, type Browser, type Page } from "@playwright/test";
import { DESKTOP } from "./helpers";
import { review, signIn, SITE } from "./newsroom-site";

/**
 * A video link an editor puts on a line of its own in a story's body is a player on the story's
 * page (server/news/video-players.ts): a lazy frame whose poster, tapped, becomes the
 * privacy-enhanced player in place, with JavaScript and without it. YouTube cannot be reached from
 * here, so the player's address answers with a stand-in page; nothing else of YouTube's is asked
 * for before the tap.
 */

test.use({ baseURL: SITE });

const VIDEO_ID = "Cc4Agenda_9";
const PLAYER = "https://www.youtube-nocookie.com/**";

/** Publishes a story whose body holds the video link, written as Markdown (no JavaScript). */
async function publishStoryWithVideo(browser: Browser, title: string): Promise<string> {
  const writer = await browser.newContext({ baseURL: SITE, javaScriptEnabled: false });
  const page = await writer.newPage();
  await signIn(page);
  await page.goto("/newsroom/posts");
  await page.getByRole("button", { name: "New story" }).click();
  await expect(page).toHaveURL(/\/newsroom\/posts\/\d+\?done=created$/);
  await page.getByLabel("Headline", { exact: true }).fill(title);
  await page.getByLabel("Category", { exact: true }).selectOption("local-news");
  await page.getByLabel(/^Bylines/).fill("Ana Ruiz");
  await page
    .getByLabel("Body", { exact: true })
    .fill(
      "The council met on Tuesday.\n\n" +
        `https://www.youtube.com/watch?v=${VIDEO_ID}\n\n` +
        "The vote comes next month.",
    );
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Published: it is on the site now." }),
  ).toBeVisible();
  const href = await page
    .getByRole("region", { name: "Publish" })
    .getByRole("link", { name: "View on the site" })
    .getAttribute("href");
  await writer.close();
  expect(href).toMatch(/^\/article\/[^/]+$/);
  return href ?? "";
}

/** Plays the story's video and checks the frame became the player, in place. */
async function play(page: Page) {
  const asked: string[] = [];
  await page.context().route(PLAYER, async (route) => {
    asked.push(route.request().url());
    await route.fulfill({
      contentType: "text/html",
      body: "<!doctype html><title>Player</title><p>The player</p>",
    });
  });
  const frame = page.locator(".article-body [data-video-state] iframe");
  await expect(frame).toHaveAttribute("title", "Video: YouTube video");
  await frame.scrollIntoViewIfNeeded();
  const box = await frame.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(200);
  // 16:9, as the page's other players.
  expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - 16 / 9)).toBeLessThan(0.05);
  expect(asked).toEqual([]);
  await page
    .frameLocator(".article-body [data-video-state] iframe")
    .getByRole("link", { name: "Play video: YouTube video" })
    .click();
  await expect
    .poll(() => asked)
    .toEqual([`https://www.youtube-nocookie.com/embed/${VIDEO_ID}?rel=0&controls=1&autoplay=1`]);
  await expect(
    page.frameLocator(".article-body [data-video-state] iframe").getByText("The player"),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/article\//);
}

test("a video link on a line of its own plays in the story, with and without JavaScript", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${testInfo.project.name === DESKTOP ? "desk" : "phone"} ${Date.now().toString(36)}`;
  const title = `Council video story (${tag})`;
  const address = await publishStoryWithVideo(browser, title);
  const viewport = testInfo.project.use.viewport ?? null;

  for (const javaScriptEnabled of [true, false]) {
    await test.step(javaScriptEnabled ? "with JavaScript" : "without JavaScript", async () => {
      const reader = await browser.newContext({ baseURL: SITE, javaScriptEnabled, viewport });
      const page = await reader.newPage();
      await page.goto(address);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      const body = page.locator(".article-body");
      await expect(body).toContainText("The council met on Tuesday.");
      await expect(body).toContainText("The vote comes next month.");
      await expect(body.getByRole("link", { name: /youtube\.com/ })).toHaveCount(0);
      await review(page, `own-story-video${javaScriptEnabled ? "" : "-nojs"}`, javaScriptEnabled);
      await play(page);
      await reader.close();
    });
  }
});
