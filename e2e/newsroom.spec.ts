import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { DESKTOP, isProject } from "./helpers";
import { review, signIn, SITE } from "./newsroom-site";

/**
 * The newsroom's story actions in a browser, on a copy of the sample site of their own (they change
 * what public pages show): sign in, take a story down and restore it, correct one, pin and retitle
 * one, block one by a rule. Both widths run every flow at once, so each works on stories of its own
 * categories; a flow undoes what it did.
 */

test.use({ baseURL: SITE });

/** Opens the newsroom page of the newest story on the site in `category`; its id and headline. */
async function openNewestStory(page: Page, category: string) {
  await page.goto(`/newsroom/stories?category=${category}&status=live`);
  const link = page
    .getByRole("region", { name: /^\d+ stor(y|ies)$/ })
    .getByRole("link")
    .first();
  const title = (await link.textContent()) ?? "";
  await link.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  expect(id).not.toBe("");
  return { id, title };
}

/**
 * Whether the public pages that list a story of `category` list it: its category page and feed,
 * search and the sitemap; once down, also no other list (home, the site's feed, the news sitemap).
 */
async function expectListed(
  request: APIRequestContext,
  id: string,
  title: string,
  category: string,
  listed: boolean,
) {
  const word = title.split(/\W+/).find((w) => w.length > 4) ?? title;
  const addresses = [
    `/${category}`,
    `/${category}/rss.xml`,
    `/search?q=${encodeURIComponent(word)}`,
    // This month's article sitemap: the sample was stored when the server started.
    `/sitemaps/articles-${new Date().toISOString().slice(0, 7)}.xml`,
    ...(listed ? [] : ["/", "/rss.xml", "/news-sitemap.xml", "/archives"]),
  ];
  for (const address of addresses) {
    const body = await (await request.get(address)).text();
    expect(body.includes(`/article/${id}`), `${address} lists ${id}: ${listed}`).toBe(listed);
  }
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an editor takes a story down (410, gone everywhere) and restores it", async ({
    page,
    request,
  }, testInfo) => {
    const category = isProject(testInfo, DESKTOP) ? "business" : "sports";
    await signIn(page);
    const { id, title } = await openNewestStory(page, category);
    await review(page, "newsroom-story", false);
    expect((await request.get(`/article/${id}`)).status()).toBe(200);
    await expectListed(request, id, title, category, true);

    await page.getByLabel(/Why it comes down/).fill("Legal request from the publisher");
    await page.getByRole("button", { name: "Take the story down" }).click();
    await expect(page.getByRole("status")).toContainText("The story is down");
    await expect(page.getByText("Reason: Legal request from the publisher")).toBeVisible();

    const gone = await request.get(`/article/${id}`);
    expect(gone.status()).toBe(410);
    const notice = await page.context().newPage();
    await notice.goto(`/article/${id}`);
    await expect(notice.getByRole("heading", { level: 1 })).toHaveText(
      "This story has been removed",
    );
    await expect(notice.getByText(title)).toHaveCount(0);
    await review(notice, "story-removed", false);
    await notice.close();
    await expectListed(request, id, title, category, false);

    await page.goto(`/newsroom/stories?status=down&category=${category}`);
    await review(page, "newsroom-stories-down", false);
    await page.getByRole("link", { name: title }).click();
    await page.getByRole("button", { name: "Restore the story" }).click();
    await expect(page.getByRole("status")).toContainText("The story is back on the site.");
    expect((await request.get(`/article/${id}`)).status()).toBe(200);
    await expectListed(request, id, title, category, true);
  });

  test("a block rule takes down the stored stories it matches", async ({
    page,
    request,
  }, testInfo) => {
    const category = isProject(testInfo, DESKTOP) ? "health" : "automotive";
    await signIn(page);
    const { id, title } = await openNewestStory(page, category);
    await page.goto("/newsroom/rules");
    await page.getByLabel("Words or pattern").fill(title);
    await page.getByLabel("Matched in").selectOption("title");
    await page.getByRole("button", { name: "Add the rule" }).click();
    await expect(page.getByRole("status")).toContainText("The rule is added");
    await review(page, "newsroom-rules", false);
    const rule = page.getByRole("listitem").filter({ hasText: title.toLowerCase() });
    await rule.getByRole("button", { name: /^Take down stored stories it matches/ }).click();
    await expect(page.getByRole("status")).toContainText(/1 story matching the rule is down/);
    expect((await request.get(`/article/${id}`)).status()).toBe(410);

    // Undone: the rule goes, the story comes back.
    await page
      .getByRole("listitem")
      .filter({ hasText: title.toLowerCase() })
      .getByRole("button", { name: /^Remove/ })
      .click();
    await expect(page.getByRole("status")).toContainText("The rule is removed.");
    await page.goto(`/newsroom/stories/${encodeURIComponent(id)}`);
    await expect(page.getByText(/Reason: Block rule #\d+/)).toBeVisible();
    await page.getByRole("button", { name: "Restore the story" }).click();
    expect((await request.get(`/article/${id}`)).status()).toBe(200);
  });
});

test.describe("without JavaScript, from the list", () => {
  test.use({ javaScriptEnabled: false });

  test("an editor finds a story, corrects it from its row, rewords and retracts it", async ({
    page,
    request,
  }, testInfo) => {
    const category = isProject(testInfo, DESKTOP) ? "food" : "lifestyle";
    const text = `An earlier version gave the wrong price (${testInfo.project.name}).`;
    const reworded = `An earlier version gave the wrong price and date (${testInfo.project.name}).`;
    await signIn(page);
    const { id, title } = await openNewestStory(page, category);
    const word = title.split(/\W+/).find((w) => w.length > 4) ?? title;

    // Found by readers' search; the row's actions open without JavaScript (<details>).
    await page.goto(`/newsroom/stories?q=${encodeURIComponent(word)}&category=${category}`);
    const row = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: title, exact: true }) });
    await expect(row.locator("img")).toHaveAttribute("src", /^\/images\//);
    await row.locator("summary", { hasText: "Actions" }).click();
    await review(page, "newsroom-stories-search", false);
    await row.getByLabel("A correction, dated today").fill(text);
    await row.getByRole("button", { name: "Publish the correction" }).click();
    await expect(page.getByRole("status")).toContainText("The correction is published");
    await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(word)}`));
    expect(await (await request.get("/corrections")).text()).toContain(text);

    // On its page: reworded, then seen on the site by an address no cache holds yet.
    await page.goto(`/newsroom/stories/${encodeURIComponent(id)}`);
    await page.locator("summary", { hasText: "Edit or retract" }).click();
    await page.getByLabel("Its words (it keeps its date)").fill(reworded);
    await page.getByRole("button", { name: "Save the correction" }).click();
    await expect(page.getByRole("status")).toContainText("The correction is changed");
    await page.getByRole("link", { name: "View on site" }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${id}\\?v=\\d+$`));
    await expect(page.getByRole("region", { name: "Correction" })).toContainText(reworded);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${SITE}/article/${id}`,
    );

    // Retracted: gone from the story and /corrections, still listed for staff.
    await page.goto(`/newsroom/stories/${encodeURIComponent(id)}`);
    await page.locator("summary", { hasText: "Edit or retract" }).click();
    await page.getByRole("button", { name: "Retract it" }).click();
    await expect(page.getByRole("status")).toContainText("The correction is retracted");
    await expect(page.getByRole("heading", { name: "Retracted" })).toBeVisible();
    await review(page, "newsroom-story-retracted", false);
    expect(await (await request.get("/corrections")).text()).not.toContain(reworded);
    expect(await (await request.get(`/article/${id}`)).text()).not.toContain(reworded);
  });
});

test("every newsroom screen, and the notice of a story taken down, pass axe and fit", async ({
  page,
}, testInfo) => {
  // Every screen with axe, a take-down and a restore: 20 s alone on a quiet machine.
  test.setTimeout(90_000);
  const category = isProject(testInfo, DESKTOP) ? "opinion" : "world-news";
  await signIn(page, E2E_STAFF.admin);
  await review(page, "newsroom-home");
  await page.goto("/newsroom/rules");
  await review(page, "newsroom-rules-empty");
  const { id, title } = await openNewestStory(page, category);
  await review(page, "newsroom-story-js");
  // With JavaScript, the same forms post through React Router.
  await page.getByLabel(/Why it comes down/).fill("Wrong photo");
  await page.getByRole("button", { name: "Take the story down" }).click();
  await expect(page.getByRole("status")).toContainText("The story is down");
  await review(page, "newsroom-story-down");
  await page.goto(`/newsroom/stories?status=down&category=${category}`);
  await review(page, "newsroom-stories-down-js");
  // A search's rows with their actions open.
  const word = title.split(/\W+/).find((w) => w.length > 4) ?? title;
  await page.goto(`/newsroom/stories?q=${encodeURIComponent(word)}`);
  await page.locator("summary", { hasText: "Actions" }).first().click();
  await review(page, "newsroom-stories-search-js");
  const notice = await page.context().newPage();
  const response = await notice.goto(`/article/${id}`);
  expect(response?.status()).toBe(410);
  await review(notice, "story-removed-js");
  await notice.close();
  await page.goto(`/newsroom/stories/${encodeURIComponent(id)}`);
  await page.getByRole("button", { name: "Restore the story" }).click();
  await expect(page.getByRole("status")).toContainText("The story is back on the site.");
});

test("a correction shows above the story, in its JSON-LD and at /corrections", async ({
  page,
}, testInfo) => {
  const category = isProject(testInfo, DESKTOP) ? "technology" : "politics";
  const text = `An earlier version misstated the date (${testInfo.project.name}).`;
  await signIn(page);
  const { id } = await openNewestStory(page, category);
  await page.getByLabel(/A correction, dated today/).fill(text);
  await page.getByRole("button", { name: "Publish the correction" }).click();
  await expect(page.getByRole("status")).toContainText("The correction is published");
  // The box is empty again: a second click sends nothing twice.
  await expect(page.getByLabel(/A correction, dated today/)).toHaveValue("");
  // Shown, and in its form to reword it (closed).
  await expect(page.getByText(text).first()).toBeVisible();

  await page.goto(`/article/${id}`);
  const note = page.getByRole("region", { name: "Correction" });
  await expect(note).toContainText(text);
  const noteBox = await note.boundingBox();
  const bodyBox = await page.locator(".article-body").boundingBox();
  expect(noteBox && bodyBox && noteBox.y < bodyBox.y).toBe(true);
  const graph = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
  ) as { "@graph": { "@type": string; correction?: unknown }[] };
  expect(graph["@graph"].find((n) => n["@type"] === "NewsArticle")?.correction).toEqual([
    { "@type": "CorrectionComment", text, datePublished: expect.any(String) },
  ]);
  await review(page, "article-corrected");

  await page.goto("/corrections");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Corrections");
  await expect(page.getByRole("main").getByText(text)).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${SITE}/corrections`,
  );
  await review(page, "corrections");
});

test("a pinned, retitled story leads the slider and the headlines, then steps back", async ({
  page,
  request,
}, testInfo) => {
  // An older story of a category the home page's lists do not draw from.
  const category = isProject(testInfo, DESKTOP) ? "arts-culture" : "real-estate";
  const headline = `Pinned for the ${testInfo.project.name} test`;
  await signIn(page);
  const { id, title } = await openNewestStory(page, category);
  await page.getByLabel("Our headline").fill(headline);
  await page.getByRole("button", { name: "Save the headline" }).click();
  await expect(page.getByRole("status")).toContainText("The headline is saved.");
  await expect(page.getByText(`The feed's headline: ${title}`)).toBeVisible();
  await page.getByLabel("Pin it for").selectOption({ label: "1 day" });
  await page.getByRole("button", { name: "Pin the story" }).click();
  await expect(page.getByText(/Pinned at place \d until/)).toBeVisible();
  await review(page, "newsroom-story-pinned");

  await page.goto("/");
  const headlines = page
    .getByRole("region", { name: "Today's Headlines" })
    .getByRole("listitem")
    .getByRole("link");
  const slides = page.getByRole("region", { name: "Featured stories" }).locator("li");
  // The other width's test may pin a story of its own at the same time: one of the first two.
  const leading = async (locator: typeof headlines) =>
    (await locator.evaluateAll((nodes) => nodes.map((n) => n.outerHTML))).slice(0, 2).join();
  expect(await leading(headlines)).toContain(`/article/${id}`);
  expect(await leading(slides)).toContain(`/article/${id}`);
  await expect(page.getByRole("main").getByText(headline).first()).toBeVisible();

  await page.goto("/newsroom/stories");
  await review(page, "newsroom-stories");
  await page.getByRole("button", { name: `Unpin: ${headline}` }).click();
  await expect(page.getByRole("status")).toContainText("The story is unpinned.");
  await page.goto(`/newsroom/stories/${encodeURIComponent(id)}`);
  await page.getByRole("button", { name: "Use the feed's headline" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  // Asked afresh (the browser may keep the home page for its max-age, as any reader's does).
  const home = await (await request.get("/")).text();
  const headlinesHtml = home.slice(home.indexOf("Today&#x27;s Headlines"));
  const firstTwo = [...headlinesHtml.matchAll(/href="(\/article\/[^"]+)"/g)].slice(0, 2);
  expect(firstTwo.map((m) => m[1])).not.toContain(`/article/${id}`);
  expect(home).not.toContain(headline);
});

test("with JavaScript, a form that did its work is drawn empty; a refused one keeps its words", async ({
  page,
}, testInfo) => {
  const pattern = `no story says this ${testInfo.project.name}`;
  await signIn(page);
  await page.goto("/newsroom/rules");
  const box = page.getByLabel("Words or pattern");
  await box.fill("x");
  await page.getByRole("button", { name: "Add the rule" }).click();
  await expect(page.getByRole("alert")).toContainText("Give at least two letters or digits");
  await expect(box).toHaveValue("x");

  await box.fill(pattern);
  await page.getByRole("button", { name: "Add the rule" }).click();
  await expect(page.getByRole("status")).toContainText("The rule is added");
  // Empty again: a second click adds nothing twice.
  await expect(box).toHaveValue("");

  await page
    .getByRole("listitem")
    .filter({ hasText: pattern })
    .getByRole("button", { name: /^Remove/ })
    .click();
  await expect(page.getByText("The rule is removed.")).toBeVisible();
});
