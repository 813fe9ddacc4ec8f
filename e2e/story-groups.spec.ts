import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { DESKTOP, drawEverything, isProject } from "./helpers";
import { review, signIn, SITE as NEWSROOM } from "./newsroom-site";

/**
 * Story groups (issue #36, decision 032) in a browser. The sample feeds carry one story twice: the
 * local sample feed's Harbor Drive story, which leads its group, and the same event from a second
 * outlet (fixtures/feeds/local-wire.xml). Readers see one card for the two, saying who else covered
 * it, and the article page lists the other version; in the newsroom, staff split the wire's version
 * out, join it back by the local story's address and make it the lead, then give the lead back.
 */

const LOCAL = "Harbor Drive bike lanes to close for three weekends of repaving";
const WIRE = "Harbor Drive bike lanes closing three weekends for repaving, city says";
const LOCAL_OUTLET = "sample.example.org";
const WIRE_OUTLET = "coastwire.example.net";
const WIDTHS = [375, 1280] as const;

/** The cards (every list's <article>) in the page's main landmark whose headline is `title`. */
const cardsOf = (page: Page, title: string): Locator =>
  page
    .getByRole("main")
    .getByRole("article")
    .filter({ has: page.getByRole("link", { name: title, exact: true }) });

/** A story's id from the address of its page on the site. */
async function idFrom(link: Locator): Promise<string> {
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/article\/[a-z0-9-]+$/);
  return href.slice("/article/".length);
}

/**
 * A list shows the group once: `lead`'s card with "Also covered by" the other's outlet, never the
 * folded version. `shown` false: the lead's card may have left the page's lists (on the newsroom's
 * site, other specs' new stories push it off the home page), the folded version is still absent.
 */
async function expectOneCard(
  page: Page,
  lead: string,
  folded: string,
  outlet: string,
  shown = true,
) {
  const cards = cardsOf(page, lead);
  if (shown) expect(await cards.count()).toBeGreaterThan(0);
  for (const card of await cards.all()) {
    await expect(card).toContainText(`Also covered by ${outlet}`);
  }
  await expect(page.getByRole("main").getByRole("link", { name: folded })).toHaveCount(0);
  await expect(page.getByRole("main")).not.toContainText(folded);
}

test.describe("readers see one card for the group", () => {
  // Each page with axe and a full-page screenshot: a minute on a busy 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("home and Local News: the local card, also covered by the wire", async ({ page }) => {
    for (const route of ["/", "/local-news", "/local-news?all=1"]) {
      await test.step(route, async () => {
        await page.goto(route);
        await expectOneCard(page, LOCAL, WIRE, WIRE_OUTLET);
        if (route === "/") {
          // The slider leads with the local story, and says who else covered it.
          const slide = page
            .locator('[aria-roledescription="slide"]')
            .filter({ has: page.getByRole("heading", { name: LOCAL, exact: true }) });
          await expect(slide).toContainText(`Also covered by ${WIRE_OUTLET}`);
        }
        await drawEverything(page);
        await review(page, `groups-list${route.replace(/\W+/g, "-")}`);
      });
    }
  });

  test("the article page lists the other version, whose page lists it back", async ({ page }) => {
    await page.goto("/local-news");
    await cardsOf(page, LOCAL).getByRole("link", { name: LOCAL, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(LOCAL);
    const versions = page.getByRole("region", { name: "Also covered by" });
    await expect(versions.getByRole("listitem")).toHaveCount(1);
    const wire = versions.getByRole("link", { name: WIRE, exact: true });
    await expect(versions.getByRole("listitem")).toContainText(
      new RegExp(`\\(${WIRE_OUTLET.replace(/\./g, "\\.")}, November 15, 2026\\)`),
    );
    const width = page.viewportSize()?.width ?? 0;
    await review(page, "groups-article-local");
    await versions.scrollIntoViewIfNeeded();
    await versions.screenshot({ path: test.info().outputPath(`groups-versions-${width}.png`) });
    const wireId = await idFrom(wire);

    await wire.click();
    await expect(page).toHaveURL(`/article/${wireId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(WIRE);
    const back = page.getByRole("region", { name: "Also covered by" });
    await expect(back.getByRole("listitem")).toHaveCount(1);
    await expect(back.getByRole("link", { name: LOCAL, exact: true })).toHaveAttribute(
      "href",
      /^\/article\/harbor-drive-/,
    );
    await expect(back.getByRole("listitem")).toContainText(`(${LOCAL_OUTLET}, `);
    // The wire's own page never offers the group again under Latest News.
    await expect(page.getByRole("main").getByRole("link", { name: LOCAL })).toHaveCount(1);
    await review(page, "groups-article-wire");
    await back.scrollIntoViewIfNeeded();
    await back.screenshot({ path: test.info().outputPath(`groups-versions-wire-${width}.png`) });
  });

  test("search finds the group once, with the line naming the other outlet", async ({ page }) => {
    await page.goto("/search?q=Harbor%20Drive");
    const main = page.getByRole("main");
    const local = main
      .getByRole("article")
      .filter({ has: page.getByRole("link", { name: LOCAL }) });
    const wire = main.getByRole("article").filter({ has: page.getByRole("link", { name: WIRE }) });
    // Search keeps each group's best-ranked version (decision 032), whichever it is.
    await expect(
      main.getByRole("article").filter({ hasText: /Harbor Drive bike lanes/ }),
    ).toHaveCount(1);
    const shown = (await local.count()) === 1 ? local : wire;
    await expect(shown).toHaveCount(1);
    await expect(shown).toContainText(
      `Also covered by ${(await local.count()) === 1 ? WIRE_OUTLET : LOCAL_OUTLET}`,
    );
    await review(page, "groups-search");
  });
});

/** The group is one for the whole newsroom site: changed from one project, at both widths. */
const ONE_GROUP = "one Harbor Drive group on the newsroom's site: changed from one project";

/** A signed-in staff page of a context of its own. */
async function staffPage(browser: Browser, javaScriptEnabled: boolean, member = E2E_STAFF.editor) {
  const context = await browser.newContext({
    baseURL: NEWSROOM,
    javaScriptEnabled,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await signIn(page, member);
  return page;
}

/**
 * Looks at a page at both widths with JavaScript (axe cannot run in a page without it): no serious
 * accessibility fault, nothing wider than the window, a full-page screenshot, and one of `part`.
 */
async function reviewBoth(page: Page, address: string, label: string, part?: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(address);
    await review(page, label);
    if (part) {
      const region = page.getByRole("region", { name: part });
      await region.scrollIntoViewIfNeeded();
      await region.screenshot({ path: test.info().outputPath(`${label}-panel-${width}.png`) });
    }
  }
}

/** A reader's fresh look at a public page (no page kept from before the change). */
async function readerPage(browser: Browser, address: string, width: number) {
  const context = await browser.newContext({
    baseURL: NEWSROOM,
    viewport: { width, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(address);
  return page;
}

/** Puts the group back as the sample has it, whatever step a failed run stopped at. */
async function restoreGroup(page: Page, localId: string, wireId: string) {
  await page.goto(`/newsroom/stories/${wireId}`);
  const panel = page.getByRole("region", { name: "Story group" });
  if ((await panel.getByText(/This story stands alone/).count()) > 0) {
    await panel
      .getByLabel("Join it with another story (its id or its address on the site)")
      .fill(localId);
    await panel.getByRole("button", { name: "Join" }).click();
  }
  await page.goto(`/newsroom/stories/${localId}`);
  const lead = page.getByRole("button", { name: "Make this story the lead" });
  if ((await lead.count()) > 0) await lead.click();
}

test.describe("staff split, join and lead the group", () => {
  test.describe.configure({ mode: "serial" });
  test.use({ baseURL: NEWSROOM });

  test("without JavaScript: split, join back by address, make the wire lead, give it back", async ({
    browser,
  }, testInfo) => {
    test.skip(!isProject(testInfo, DESKTOP), ONE_GROUP);
    // Four actions, twenty pages with axe at two widths: minutes on a busy 2-core machine.
    test.setTimeout(480_000);
    const editor = await staffPage(browser, false);
    const looker = await staffPage(browser, true);

    // The two versions' ids, from the site as readers find them.
    await editor.goto("/local-news");
    const localId = await idFrom(
      cardsOf(editor, LOCAL).getByRole("link", { name: LOCAL, exact: true }),
    );
    await editor.goto(`/article/${localId}`);
    const wireId = await idFrom(
      editor
        .getByRole("region", { name: "Also covered by" })
        .getByRole("link", { name: WIRE, exact: true }),
    );
    const wireStory = `/newsroom/stories/${wireId}`;
    const localStory = `/newsroom/stories/${localId}`;
    const panel = editor.getByRole("region", { name: "Story group" });

    try {
      await test.step("the wire story's page shows its group", async () => {
        await editor.goto(wireStory);
        await expect(editor.getByRole("heading", { level: 1 })).toHaveText(WIRE);
        const versions = panel.getByRole("listitem");
        await expect(versions).toHaveCount(2);
        // The lead first.
        await expect(versions.nth(0)).toHaveText(
          `${LOCAL} (${LOCAL_OUTLET}, Local News, the lead)`,
        );
        await expect(versions.nth(0).getByRole("link", { name: LOCAL })).toHaveAttribute(
          "href",
          localStory,
        );
        await expect(versions.nth(1)).toHaveText(`This story (${WIRE_OUTLET}, Local News)`);
        await expect(panel.getByRole("button", { name: "Make this story the lead" })).toBeVisible();
        await review(editor, "groups-newsroom-wire-nojs", false);
        await reviewBoth(looker, wireStory, "groups-newsroom-wire", "Story group");
      });

      await test.step("split: the wire story stands alone, Local News shows two cards", async () => {
        await panel.getByRole("button", { name: "Split it from the group" }).click();
        await expect(editor).toHaveURL(`${wireStory}?done=group-split`);
        await expect(editor.getByRole("status")).toHaveText(
          "The story stands alone now: no ingest pass groups it again.",
        );
        await expect(panel).toContainText(
          "This story stands alone: no other feed's version is grouped with it.",
        );
        await expect(panel.getByRole("listitem")).toHaveCount(0);
        await reviewBoth(looker, `${wireStory}?done=group-split`, "groups-newsroom-split");
        for (const width of WIDTHS) {
          const reader = await readerPage(browser, "/local-news?all=1", width);
          await expect(cardsOf(reader, WIRE)).toHaveCount(1);
          await expect(cardsOf(reader, LOCAL)).toHaveCount(1);
          await expect(cardsOf(reader, LOCAL)).not.toContainText("Also covered by");
          await expect(cardsOf(reader, WIRE)).not.toContainText("Also covered by");
          await drawEverything(reader);
          await review(reader, "groups-local-news-split");
          await reader.goto(`/article/${localId}`);
          await expect(reader.getByRole("region", { name: "Also covered by" })).toHaveCount(0);
          await review(reader, "groups-article-split");
          await reader.context().close();
        }
      });

      await test.step("join it back by the local story's address: the local one leads", async () => {
        await panel
          .getByLabel("Join it with another story (its id or its address on the site)")
          .fill(`${NEWSROOM}/article/${localId}`);
        await panel.getByRole("button", { name: "Join" }).click();
        await expect(editor).toHaveURL(`${wireStory}?done=group-join`);
        await expect(editor.getByRole("status")).toHaveText(
          "The stories are one group: lists show its lead with “also covered by”.",
        );
        await expect(panel.getByRole("listitem")).toHaveCount(2);
        await expect(panel.getByRole("listitem").nth(0)).toContainText(`${LOCAL} (`);
        await expect(panel.getByRole("listitem").nth(0)).toContainText("the lead");
        await reviewBoth(looker, `${wireStory}?done=group-join`, "groups-newsroom-join");
      });

      await test.step("make the wire story the lead: lists show its card", async () => {
        await panel.getByRole("button", { name: "Make this story the lead" }).click();
        await expect(editor).toHaveURL(`${wireStory}?done=group-lead`);
        await expect(editor.getByRole("status")).toHaveText(
          "The story leads its group: lists of every category show it for the group.",
        );
        await expect(panel.getByRole("listitem").nth(0)).toHaveText(
          `This story (${WIRE_OUTLET}, Local News, the lead)`,
        );
        await expect(panel.getByRole("button", { name: "Make this story the lead" })).toHaveCount(
          0,
        );
        await reviewBoth(
          looker,
          `${wireStory}?done=group-lead`,
          "groups-newsroom-lead",
          "Story group",
        );
        for (const width of WIDTHS) {
          for (const route of ["/", "/local-news?all=1"]) {
            const reader = await readerPage(browser, route, width);
            await expectOneCard(reader, WIRE, LOCAL, LOCAL_OUTLET, route !== "/");
            await drawEverything(reader);
            await review(reader, `groups-wire-leads${route.replace(/\W+/g, "-")}`);
            await reader.context().close();
          }
        }
      });

      await test.step("the local story leads again, as the sample has it", async () => {
        await editor.goto(localStory);
        await expect(panel.getByRole("listitem").nth(0)).toContainText("the lead");
        await panel.getByRole("button", { name: "Make this story the lead" }).click();
        await expect(editor).toHaveURL(`${localStory}?done=group-lead`);
        await expect(panel.getByRole("listitem").nth(0)).toHaveText(
          `This story (${LOCAL_OUTLET}, Local News, the lead)`,
        );
        await reviewBoth(looker, `${localStory}?done=group-lead`, "groups-newsroom-local-lead");
        for (const width of WIDTHS) {
          for (const route of ["/", "/local-news?all=1"]) {
            const reader = await readerPage(browser, route, width);
            await expectOneCard(reader, LOCAL, WIRE, WIRE_OUTLET, route !== "/");
            await reader.context().close();
          }
        }
      });
    } finally {
      await restoreGroup(editor, localId, wireId).catch(() => undefined);
    }

    await test.step("the audit log tells each change", async () => {
      const admin = await staffPage(browser, true, E2E_STAFF.admin);
      await admin.goto("/newsroom/audit?kind=groups");
      const entries = admin.getByRole("list", { name: "Entries" }).getByRole("listitem");
      const who = E2E_STAFF.editor.email;
      for (const sentence of [
        `${who} split “${WIRE}” from its story group`,
        `${who} joined “${WIRE}” with “${LOCAL}”`,
        `${who} made “${WIRE}” its story group's lead`,
        `${who} made “${LOCAL}” its story group's lead`,
      ]) {
        await expect(entries.filter({ hasText: sentence })).toHaveCount(1);
      }
      await reviewBoth(admin, "/newsroom/audit?kind=groups", "groups-audit");
      await admin.context().close();
    });
    await editor.context().close();
    await looker.context().close();
  });
});
