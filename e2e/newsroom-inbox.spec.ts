import { expect, test, type Page } from "@playwright/test";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { dateToSanDiegoLocal } from "../shared/san-diego-time";
import { DESKTOP, isProject, scrollToSettled } from "./helpers";
import { review, signIn, SITE } from "./newsroom-site";

/**
 * The newsroom's Breaking banner, inbox and poll results in a browser, on the newsroom's own copy
 * of the sample site: an editor puts a banner up and the public home page shows it at once, then
 * clears it (with and without JavaScript); reads a hostile contact message as text, marks one
 * handled, deletes one after confirming; reads the poll's totals; and is refused an admin's page.
 */

test.use({ baseURL: SITE });

const HOSTILE = "<img src=x onerror=alert(1)>";
const SITE_TEXT =
  "City Council meets Tuesday to vote on the downtown housing plan (sample headline)";

/** The home page's Breaking banner, as a reader sees it. */
const homeBanner = (page: Page) => page.getByRole("main").locator("p", { hasText: /^Breaking/ });

/** Fails the test if the page ever opens an alert (a hostile text run as markup). */
function refuseDialogs(page: Page) {
  page.on("dialog", (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
}

const ONE_BANNER = "one banner for the whole site: set from one project, at both widths";
/** A vote from the other width's test between the reader's count and the newsroom's would differ. */
const ONE_POLL = "one poll for the whole site: counted from one project, read at both widths";

/** What a page says once an action is done (a navigation's own "Loading" status aside). */
async function expectDone(page: Page, text: string) {
  await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible({
    timeout: 15_000,
  });
}

const inHours = (hours: number) => dateToSanDiegoLocal(new Date(Date.now() + hours * 3600_000));

/**
 * The banner is one for the whole site, and both widths' tests run at once: one project sets it,
 * and looks at every screen at both widths.
 */
test.describe("the Breaking banner", () => {
  test.describe.configure({ mode: "serial" });

  test("an editor puts a banner up, the home page shows it at once, then clears it", async ({
    page,
    browser,
  }, testInfo) => {
    test.skip(!isProject(testInfo, DESKTOP), ONE_BANNER);
    // Sign-in, the form, the home page in a second browser, twice: 24 s alone on a quiet machine.
    test.setTimeout(90_000);
    refuseDialogs(page);
    await signIn(page);
    await page
      .getByRole("navigation", { name: "Newsroom" })
      .getByRole("link", { name: "Banner" })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Breaking banner");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await review(page, "newsroom-banner-empty");
    }

    // Out of bounds: refused on the page, nothing changes.
    await page.getByLabel("Text").fill("Road closed");
    await page.getByLabel(/^Link/).fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Put the banner up" }).click();
    await expect(page.getByRole("alert")).toContainText("Give a link that starts with http://");

    const text = `Wildfire ${HOSTILE} near Alpine: roads closed`;
    await page.getByLabel("Text").fill(text);
    await page.getByLabel(/^Link/).fill("/local-news");
    await page.getByLabel("Ends (San Diego time)").fill(inHours(2));
    await page.getByRole("button", { name: "Put the banner up" }).click();
    await expectDone(page, "The banner is up on the home page.");
    await expect(
      page.getByText(/Links to \/local-news\. Until .* \(San Diego time\)/),
    ).toBeVisible();

    // A reader's tab: the newsroom's cookie is never sent to public pages.
    const reader = await page.context().newPage();
    refuseDialogs(reader);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await review(page, "newsroom-banner-set");
      await reader.setViewportSize({ width, height: 900 });
      await reader.goto("/");
      const banner = homeBanner(reader);
      await expect(banner).toHaveText(`Breaking${text}`);
      await expect(banner.locator("img")).toHaveCount(0);
      await expect(banner.getByRole("link")).toHaveAttribute("href", "/local-news");
      await review(reader, "home-with-banner");
    }

    await page.getByRole("button", { name: "Clear the banner" }).click();
    await expectDone(page, "The banner is cleared");
    await reader.close();
    // A reader who has not just loaded the home page (a browser may keep it for its max-age).
    const fresh = await browser.newPage({ baseURL: SITE });
    await fresh.goto("/");
    await expect(homeBanner(fresh)).toHaveText(`Breaking${SITE_TEXT}`);
    await fresh.close();
  });

  test("without JavaScript, the banner's form posts and the home page follows", async ({
    browser,
  }, testInfo) => {
    test.skip(!isProject(testInfo, DESKTOP), ONE_BANNER);
    const context = await browser.newContext({ baseURL: SITE, javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page);
    await page.goto("/newsroom/banner");
    await page.getByLabel("Text").fill("Water main break on Fifth Avenue");
    await page.getByLabel("Ends (San Diego time)").fill(inHours(1));
    await page.getByRole("button", { name: "Put the banner up" }).click();
    await expect(page).toHaveURL(/\/newsroom\/banner\?done=set$/);
    await expectDone(page, "The banner is up on the home page.");
    await review(page, "newsroom-banner-nojs", false);

    const reader = await context.newPage();
    await reader.goto("/");
    await expect(homeBanner(reader)).toHaveText("BreakingWater main break on Fifth Avenue");
    await expect(homeBanner(reader).getByRole("link")).toHaveCount(0);

    await page.getByRole("button", { name: "Clear the banner" }).click();
    await expect(page).toHaveURL(/\/newsroom\/banner\?done=clear$/);
    await review(page, "newsroom-banner-cleared-nojs", false);
    // A reader who has not just loaded the home page (a browser may keep it for its max-age).
    const other = await browser.newContext({ baseURL: SITE, javaScriptEnabled: false });
    const fresh = await other.newPage();
    await fresh.goto("/");
    await expect(homeBanner(fresh)).toHaveText(`Breaking${SITE_TEXT}`);
    await other.close();
    await context.close();
  });
});

/** Sends a contact message as a reader does, through the public form. */
async function sendContactMessage(page: Page, name: string, message: string) {
  await page.goto("/contact-us");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("E-mail", { exact: true }).fill("reader@example.org");
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.getByRole("button", { name: "Send message" }).click();
  await expectDone(page, "your message has reached our newsroom");
}

test("an editor reads a hostile message as text, marks one handled and deletes one", async ({
  page,
  browser,
}, testInfo) => {
  // Three messages sent, read, marked and deleted: 28 s on a phone under four specs at once.
  test.setTimeout(90_000);
  refuseDialogs(page);
  const project = testInfo.project.name;
  const hostileName = `${HOSTILE} ${project}`;
  const plainName = `Ana Reader ${project}`;
  const reader = await browser.newPage({ baseURL: SITE });
  await sendContactMessage(reader, plainName, "The crosswalk signal at 30th is out again.");
  await sendContactMessage(
    reader,
    hostileName,
    `<script>alert(2)</script> ${HOSTILE} Please look at this.`,
  );
  await reader.close();

  await signIn(page);
  await page
    .getByRole("navigation", { name: "Newsroom" })
    .getByRole("link", { name: "Inbox" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Inbox");
  const hostile = page.getByRole("article", { name: new RegExp(`^${escape(hostileName)}`) });
  await expect(hostile).toContainText(`<script>alert(2)</script> ${HOSTILE} Please look at this.`);
  await expect(page.getByRole("main").locator("img, article script")).toHaveCount(0);
  await review(page, "newsroom-inbox");

  // Handled, then open again.
  await page.getByRole("button", { name: `Mark handled: message from ${hostileName}` }).click();
  await expectDone(page, "The message is marked handled.");
  await expect(hostile).toContainText(`Handled by ${E2E_STAFF.editor.email}`);
  await review(page, "newsroom-inbox-handled");
  await page.getByRole("button", { name: `Mark open again: message from ${hostileName}` }).click();
  await expectDone(page, "The message is open again.");
  await page.getByRole("button", { name: `Mark handled: message from ${hostileName}` }).click();
  await expectDone(page, "The message is marked handled.");

  // Delete asks on a page of its own; "Keep it" keeps it.
  await page.getByRole("link", { name: `Delete…: message from ${plainName}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Delete this message?");
  await review(page, "newsroom-inbox-delete");
  await page.getByRole("link", { name: "Keep it" }).click();
  await expect(page.getByRole("article", { name: new RegExp(`^${plainName}`) })).toBeVisible();
  await page.getByRole("link", { name: `Delete…: message from ${plainName}` }).click();
  await page.getByRole("button", { name: "Delete the message" }).click();
  await expectDone(page, "The message is deleted.");
  await expect(page.getByRole("article", { name: new RegExp(`^${plainName}`) })).toHaveCount(0);
  await expect(hostile).toBeVisible();
});

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

test("the poll's results: the same counts readers see, with totals", async ({
  page,
  browser,
}, testInfo) => {
  test.skip(!isProject(testInfo, DESKTOP), ONE_POLL);
  const reader = await browser.newPage({ baseURL: SITE });
  await reader.goto("/community");
  // The cards above the poll are drawn as they near the screen and can move it (scrollToSettled).
  const pollBox = reader.getByRole("region", { name: "Community Poll" });
  await scrollToSettled(pollBox);
  await pollBox.getByRole("radio", { name: "Transportation" }).check();
  await reader.getByRole("button", { name: "Vote" }).click();
  const total = reader.getByText(/^Total votes:/);
  await expect(total).toBeVisible();
  const readerTotal = Number(/\d+/.exec((await total.textContent()) ?? "")?.[0]);
  const line = await reader
    .getByRole("list", { name: "Poll results" })
    .getByRole("listitem")
    .filter({ hasText: "Transportation" })
    .textContent();
  const [, percent, votes] = /(\d+)% \((\d+) votes?\)/.exec(line ?? "") ?? [];
  await reader.close();
  expect(readerTotal).toBeGreaterThan(0);

  await signIn(page);
  await page
    .getByRole("navigation", { name: "Newsroom" })
    .getByRole("link", { name: "Poll results" })
    .click();
  const poll = page.getByRole("region", {
    name: "What is the most important issue facing San Diego?",
  });
  await expect(poll.getByRole("row", { name: /^Transportation/ })).toHaveText(
    `Transportation${votes}${percent}%`,
  );
  await expect(poll.getByRole("row", { name: /^Total/ })).toHaveText(`Total${readerTotal}100%`);
  for (const option of [
    "Housing affordability",
    "Homelessness",
    "Climate change",
    "Jobs & economy",
  ]) {
    await expect(poll.getByRole("row", { name: new RegExp(`^${escape(option)}`) })).toHaveCount(1);
  }
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await review(page, "newsroom-polls");
  }
});

test("an editor is refused an admin's page, which an admin reads", async ({ page, browser }) => {
  await signIn(page);
  const nav = page.getByRole("navigation", { name: "Newsroom" });
  await expect(nav.getByRole("link", { name: "Inbox" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  const refused = await page.goto("/newsroom/audit");
  expect(refused?.status()).toBe(403);
  await expect(page.getByText("Only an admin can see or do this.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  // Still the newsroom, with the way back, not the readers' error page.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not for your role");
  await review(page, "newsroom-admin-refused", false);
  await page.getByRole("link", { name: "Back to the newsroom" }).click();
  await expect(page).toHaveURL(/\/newsroom$/);

  const admin = await browser.newPage({ baseURL: SITE });
  await signIn(admin, E2E_STAFF.admin);
  const answer = await admin.goto("/newsroom/audit");
  expect(answer?.status()).toBe(200);
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  await admin.close();
});
