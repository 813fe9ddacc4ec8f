import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  test,
  type Browser,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import sharp from "sharp";
import { expectNoSeriousViolations } from "./axe";
import { DESKTOP, isProject } from "./helpers";
import { review, signIn, SITE } from "./newsroom-site";
import { dateToSanDiegoLocal, sanDiegoFormat } from "../shared/san-diego-time";

/**
 * The newsroom's writing pages in a browser (decision 028), on the newsroom's own copy of the
 * sample site: a story written in the rich editor with a picture and its focal point, autosaved;
 * its preview; a story scheduled and published by the web process on time; a blog post written
 * without JavaScript; a revision restored; hostile bodies and files. Each test writes a post of its
 * own; every writing page visited is scanned by axe, must fit the window and is photographed
 * (test-results/…/*.png).
 */

test.use({ baseURL: SITE });

/** A name no other test (or the other width's run of this one) uses. */
const unique = (testInfo: TestInfo) =>
  `${testInfo.project.name === DESKTOP ? "desk" : "phone"} ${Date.now().toString(36)}`;

/**
 * A photo made now, different for each `seed`: the library keeps one entry per picture, so two
 * tests uploading the same bytes would share (and move) one focal point.
 */
async function photo(seed: string): Promise<Buffer> {
  const hue = [...seed].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="hsl(${hue},45%,40%)"/>
    <circle cx="1000" cy="620" r="120" fill="#f5c542"/>
    <text x="60" y="120" font-size="64" fill="#fff" font-family="sans-serif">${seed}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Files an attacker (or a confused phone) might pick, each named as a JPEG. */
async function hostileFiles(seed: string) {
  const jpeg = await photo(seed);
  return [
    {
      what: "an SVG",
      file: {
        name: "holiday.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="alert(\'svg\')">' +
            "<script>alert('svg script')</script><rect width='40' height='40'/></svg>",
        ),
      },
      message: "This file is not a picture we can use (JPEG, PNG, WebP, AVIF or GIF).",
    },
    {
      what: "an HTML page",
      file: {
        name: "press-photo.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from(
          "<!doctype html><html><body><script>alert('html')</script></body></html>",
        ),
      },
      message: "This file is not a picture we can use (JPEG, PNG, WebP, AVIF or GIF).",
    },
    {
      what: "a truncated JPEG",
      file: {
        name: "cut-short.jpg",
        mimeType: "image/jpeg",
        buffer: jpeg.subarray(0, Math.floor(jpeg.length / 3)),
      },
      message: "This picture could not be read: the file may be damaged or incomplete.",
    },
  ];
}

/** A date and time as the newsroom shows them: "Nov 27, 2026, 9:14 AM". */
const staffTime = (at: Date) =>
  sanDiegoFormat({ dateStyle: "medium", timeStyle: "short" }).format(at);

/** What a page says once an action is done (the autosave's status aside). */
function notice(page: Page, text: string | RegExp): Locator {
  return page.getByRole("status").filter({ hasText: text });
}

/** The editor's status once an autosave has saved the draft. */
function autosaved(page: Page): Locator {
  return notice(page, /^Saved at \d{1,2}:\d{2}\s?[AP]M\. \(draft\)$/);
}

/** Fails the test on any alert, confirm or prompt the page opens. */
function failOnDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/** The rich editor's editable area (it replaces the Markdown text area once the page hydrated). */
async function richBody(page: Page): Promise<Locator> {
  const body = page.getByRole("textbox", { name: "Body", exact: true });
  await expect(body).toHaveAttribute("contenteditable", "true", { timeout: 20_000 });
  return body;
}

/** Opens a new draft of `kind` from the writing list; its id. */
async function newPost(page: Page, kind: "story" | "blog"): Promise<number> {
  await page.goto("/newsroom/posts");
  await page
    .getByRole("button", { name: kind === "story" ? "New story" : "New blog post" })
    .click();
  await expect(page).toHaveURL(/\/newsroom\/posts\/\d+\?done=created$/);
  await expect(notice(page, "A new draft.")).toBeVisible();
  return Number(/\/posts\/(\d+)/.exec(page.url())?.[1]);
}

/** The story's headline, dek, category and bylines, typed in. */
async function fillStory(page: Page, title: string, category = "local-news") {
  await page.getByLabel("Headline", { exact: true }).fill(title);
  await page.getByLabel(/^Dek/).fill("A month of hearings ends with a vote on Tuesday night.");
  await page.getByLabel("Category", { exact: true }).selectOption(category);
  await page.getByLabel(/^Bylines/).fill("Ana Ruiz, Sam Lee");
}

/**
 * Types `text` into the rich editor and lets the autosave keep it, then loads the page again: a
 * Save or Publish pressed after an autosave, on the same page, would send the body as it was when
 * the page loaded (the test "a Save after an autosave keeps the words typed before it").
 */
async function writeBody(page: Page, text: string) {
  await (await richBody(page)).click();
  await page.keyboard.type(text);
  await expect(autosaved(page)).toBeVisible({ timeout: 15_000 });
  await page.reload();
  await expect(await richBody(page)).toContainText(text);
}

/**
 * Submits the editor's form with `html` as its body, as a forged request (or a broken editor)
 * would send it: set and sent at once, before the page could draw anything in between.
 */
async function sendBody(page: Page, html: string, button: string) {
  await page.locator("form:has(input[name=body])").evaluate(
    (form, [body, name]) => {
      const element = form as HTMLFormElement;
      (element.elements.namedItem("body") as HTMLInputElement).value = body;
      const submitter = [...element.querySelectorAll("button")].find(
        (b) => b.textContent?.trim() === name,
      );
      element.requestSubmit(submitter);
    },
    [html, button] as const,
  );
}

/** The published story's address on the site, from the editor's "View on the site" link. */
async function siteLink(page: Page): Promise<string> {
  const link = page
    .getByRole("region", { name: "Publish" })
    .getByRole("link", { name: "View on the site" });
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/(article|blog)\/[^/]+$/);
  return href;
}

/** review() for the editor and revisions pages. */
async function reviewWriting(page: Page, label: string) {
  await review(page, label);
}

/**
 * A page as a browser without JavaScript draws it, scanned by axe: a context of its own that
 * downloads no script (so nothing hydrates) but lets axe run, signed in with `page`'s cookies.
 */
async function reviewWithoutScripts(browser: Browser, page: Page, address: string, label: string) {
  const context = await browser.newContext({
    baseURL: SITE,
    viewport: page.viewportSize(),
    // Not inherited from the test's `javaScriptEnabled: false`: axe runs in the page.
    javaScriptEnabled: true,
    storageState: await page.context().storageState(),
  });
  await context.route("**/*", (route) =>
    route.request().resourceType() === "script" ? route.abort() : route.continue(),
  );
  const scanned = await context.newPage();
  await scanned.goto(address);
  await reviewWriting(scanned, label);
  await context.close();
}

/** review() for the preview page: its frames are wider than a phone, so it is measured apart. */
async function reviewPreview(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const blocking = results.violations.filter((v) =>
    ["serious", "critical"].includes(v.impact ?? ""),
  );
  expect(
    blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    "preview: serious or critical accessibility violations",
  ).toEqual([]);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide, `preview fits ${width} px`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: test.info().outputPath(`preview-${width}.png`), fullPage: true });
}

/**
 * No trace of the attacks in the page: no handler attribute, no javascript: address, no script
 * carrying the marker (the page's own scripts aside), and no dialog opened.
 */
async function expectHarmless(page: Page, marker: string, dialogs: string[]) {
  // Long enough for a handler or a deferred script to have run.
  await page.waitForLoadState("load");
  await page.waitForTimeout(500);
  const traces = await page.evaluate((mark) => {
    const found: string[] = [];
    for (const element of document.querySelectorAll("*")) {
      for (const attribute of element.attributes) {
        const inBody = element.closest(".article-body") !== null;
        if (/^on/i.test(attribute.name) && (inBody || attribute.value.includes(mark))) {
          found.push(`${element.tagName} ${attribute.name}`);
        }
        if (/^\s*(javascript|vbscript|data:text\/html)/i.test(attribute.value)) {
          found.push(`${element.tagName} ${attribute.name}=${attribute.value}`);
        }
      }
    }
    for (const script of document.scripts) {
      const text = script.textContent ?? "";
      if (script.type !== "application/ld+json" && text.includes(mark)) found.push("script");
      if (script.type === "application/ld+json" && /<\/?script/i.test(text)) {
        found.push("JSON-LD holding a script tag");
      }
    }
    for (const element of document.querySelectorAll("iframe, object, embed, svg, form, base")) {
      if (element.closest(".article-body")) found.push(`${element.tagName} in the body`);
    }
    return found;
  }, marker);
  expect(traces, "what is left of the attacks").toEqual([]);
  expect(dialogs, "dialogs opened").toEqual([]);
}

test("a story written in the rich editor, with a picture, its focal point and autosave", async ({
  page,
  request,
}, testInfo) => {
  // Sign-in (argon2id), an upload and six pages with axe on two busy cores.
  test.setTimeout(150_000);
  const title = `Harbor board approves the budget (${unique(testInfo)})`;
  const alt = `The harbor at dusk, a yellow buoy on the right (${unique(testInfo)})`;
  await signIn(page);
  await page.goto("/newsroom/posts");
  await review(page, "writing-list");
  await newPost(page, "story");
  await richBody(page);

  // A picture from this device and its words, uploaded by Save. The words' autosave is let pass
  // first: one still waiting would post the form after Save without the new picture (the test
  // "a picture uploaded with Save stays the chosen one" below).
  await page.getByLabel(/^Alt text/).fill(alt);
  await page.getByLabel("Credit", { exact: true }).fill("Sample Photographer");
  await expect(autosaved(page)).toBeVisible({ timeout: 15_000 });
  await page.getByLabel("Or upload one from this device").setInputFiles({
    name: "harbor.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(`focus ${unique(testInfo)}`),
  });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();
  const picker = page.getByRole("button", { name: `Set the focal point of ${alt}` });
  await expect(picker).toBeVisible();
  // Loaded again, the library's list shows it chosen (not until then: the test "a picture
  // uploaded with Save stays the chosen one").
  await page.reload();
  const mediaId = await page.getByLabel("From the library").inputValue();
  expect(Number(mediaId)).toBeGreaterThan(0);

  // The focal point: a click near the picture's lower right corner (the buoy).
  const dot = page.locator("#picture span[aria-hidden=true].rounded-full");
  await expect(dot).toHaveAttribute("style", /left: ?50%; ?top: ?50%/);
  const box = await picker.boundingBox();
  if (!box) throw new Error("The focal-point picture is not drawn.");
  await picker.click({ position: { x: box.width * 0.85, y: box.height * 0.8 } });
  await expect(
    notice(page, "The focal point is set: every crop of the picture keeps it in frame."),
  ).toBeVisible();
  const style = (await dot.getAttribute("style")) ?? "";
  const [left, top] = [/left: ?([\d.]+)%/, /top: ?([\d.]+)%/].map((re) =>
    Number(re.exec(style)?.[1]),
  );
  expect(left, `the dot's style: ${style}`).toBeGreaterThanOrEqual(75);
  expect(top, `the dot's style: ${style}`).toBeGreaterThanOrEqual(70);

  // The words, the body formatted from the toolbar's Heading and Bold, then autosaved.
  await fillStory(page, title);
  const body = await richBody(page);
  const toolbar = page.getByRole("toolbar", { name: "Body: formatting" });
  await body.click();
  await toolbar.getByRole("button", { name: "Heading", exact: true }).click();
  await expect(toolbar.getByRole("button", { name: "Heading", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.keyboard.type("The budget at a glance");
  await page.keyboard.press("Enter");
  await toolbar.getByRole("button", { name: "Bold", exact: true }).click();
  await page.keyboard.type("Approved");
  await toolbar.getByRole("button", { name: "Bold", exact: true }).click();
  await page.keyboard.type(" by four votes to one after a month of hearings.");
  await expect(body.locator("h2")).toHaveText("The budget at a glance");
  await expect(body.locator("strong")).toHaveText("Approved");
  await expect(autosaved(page)).toBeVisible({ timeout: 15_000 });
  await reviewWriting(page, "editor-story");

  // Saved for real: the page loaded again has it all.
  await page.reload();
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("local-news");
  await expect(page.getByLabel(/^Bylines/)).toHaveValue("Ana Ruiz, Sam Lee");
  await expect((await richBody(page)).locator("h2")).toHaveText("The budget at a glance");
  await expect((await richBody(page)).locator("strong")).toHaveText("Approved");
  await expect(page.getByLabel("From the library")).toHaveValue(mediaId);

  // The library lists it; its page shows every crop cut around the new focus.
  await page.goto("/newsroom/media");
  await review(page, "media-library");
  await page.getByRole("link", { name: alt }).click();
  await expect(page).toHaveURL(new RegExp(`/newsroom/media/${mediaId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(alt);
  const crops = await page
    .getByRole("region", { name: "Focal point" })
    .locator("ul img")
    .evaluateAll((images) => images.map((image) => image.getAttribute("src") ?? ""));
  expect(crops).toHaveLength(4);
  for (const crop of crops) {
    const focus = /-f(\d+)x(\d+)\.jpg$/.exec(crop);
    expect(focus, crop).not.toBeNull();
    expect(Number(focus?.[1]), crop).toBeGreaterThanOrEqual(75);
    expect(Number(focus?.[2]), crop).toBeGreaterThanOrEqual(70);
    const answer = await request.get(crop);
    expect(answer.status(), crop).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/jpeg");
  }
  await review(page, "media-item");
});

test("a Save after an autosave keeps the words typed before it", async ({ page }) => {
  await signIn(page);
  const id = await newPost(page, "story");
  await page.getByLabel("Headline", { exact: true }).fill("Words typed before an autosave");
  await (await richBody(page)).click();
  await page.keyboard.type("Typed words that must survive a Save.");
  await expect(autosaved(page)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();
  await page.goto(`/newsroom/posts/${id}`);
  await expect(await richBody(page)).toContainText("Typed words that must survive a Save.");
});

test("a picture uploaded with Save stays the chosen one", async ({ page }, testInfo) => {
  await signIn(page);
  const id = await newPost(page, "story");
  await richBody(page);
  const alt = `A picture to keep (${unique(testInfo)})`;
  await page.getByLabel(/^Alt text/).fill(alt);
  await page.getByLabel("Or upload one from this device").setInputFiles({
    name: "keep.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(alt),
  });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();
  await expect(page.getByRole("button", { name: `Set the focal point of ${alt}` })).toBeVisible();
  await expect(page.getByLabel("From the library")).not.toHaveValue("");
  // An autosave waiting when Save was pressed is dropped: after longer than its delay (2.5 s), the
  // draft still has the picture.
  await page.waitForTimeout(4_000);
  await page.goto(`/newsroom/posts/${id}`);
  await expect(page.getByRole("button", { name: `Set the focal point of ${alt}` })).toBeVisible();
});

test("the preview page passes axe in full", async ({ page }) => {
  await signIn(page);
  const id = await newPost(page, "story");
  await page.getByLabel("Headline", { exact: true }).fill("A draft to preview");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved.")).toBeVisible();
  await page.goto(`/newsroom/posts/${id}/preview`);
  await expect(page.locator("iframe")).toHaveCount(2);
  await expectNoSeriousViolations(page, "preview");
});

test("the preview shows the draft as readers will, at phone and desk widths, unindexed", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const title = `Library opens a reading room (${unique(testInfo)})`;
  await signIn(page);
  const id = await newPost(page, "story");
  await fillStory(page, title, "arts-culture");
  await writeBody(page, "The reading room opens on Saturday at ten.");

  const link = page.getByRole("region", { name: "Publish" }).getByRole("link", { name: "Preview" });
  await expect(link).toHaveAttribute("href", `/newsroom/posts/${id}/preview`);
  // Opened as a page of its own, to read its answer's headers.
  const response = await page.goto(`/newsroom/posts/${id}/preview`);
  expect(response?.status()).toBe(200);
  const unindexed = (headers: Record<string, string>, what: string) => {
    expect(headers["cache-control"], `${what}: Cache-Control`).toMatch(/private|no-store/);
    expect(headers["x-robots-tag"], `${what}: X-Robots-Tag`).toMatch(/noindex/);
  };
  unindexed(response?.headers() ?? {}, "the preview");

  // One frame at a phone's width, one at a desk's, each titled for it, each the reader's page.
  const frames = page.locator("iframe[title]");
  await expect(frames).toHaveCount(2);
  const titles = await frames.evaluateAll((all) => all.map((f) => f.getAttribute("title") ?? ""));
  for (const [width, name, pixels] of [
    ["phone", /phone|mobile/i, 375],
    ["desk", /desk|computer|laptop/i, 1280],
  ] as const) {
    const matching = titles.filter((t) => name.test(t));
    expect(matching, `a frame titled for the ${width}: ${titles.join(", ")}`).toHaveLength(1);
    const element = page.locator(`iframe[title="${matching[0]}"]`);
    await expect(element).toHaveAttribute("width", String(pixels));
    const inside = element.contentFrame();
    await expect(inside.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(inside.getByText("The reading room opens on Saturday at ten.")).toBeVisible();
    await expect(inside.getByText("By Ana Ruiz and Sam Lee")).toBeVisible();
    const frame = await (await element.elementHandle())?.contentFrame();
    if (!frame) throw new Error(`The ${width} frame has no document.`);
    const wide = await frame.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `the ${width} frame's page fits ${pixels} px`).toBeLessThanOrEqual(pixels);
    const source = (await element.getAttribute("src")) ?? "";
    unindexed((await page.request.get(source)).headers(), `the ${width} frame`);
  }
  await reviewPreview(page);
  // The draft is not on the site.
  expect(await (await page.request.get("/arts-culture")).text()).not.toContain(title);
});

test("a story scheduled a minute or two ahead goes on the site at that time", async ({
  page,
  request,
}, testInfo) => {
  // The wait is the web process's: the time chosen (30 to 90 s ahead) and its 15 s check.
  test.setTimeout(300_000);
  const title = `Scheduled council vote recap (${unique(testInfo)})`;
  await signIn(page);
  await newPost(page, "story");
  await fillStory(page, title);
  await writeBody(page, "The council meets again next week to settle the details.");

  // The field has minute precision: the first whole minute at least 30 s ahead, San Diego time,
  // which leaves the checks below (before its time) and the phone width's cancel room to run first.
  const at = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
  await page.getByLabel("Publish at (San Diego time)").fill(dateToSanDiegoLocal(at));
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(notice(page, "Scheduled: it goes on the site at the time you chose.")).toBeVisible();
  const publish = page.getByRole("region", { name: "Publish" });
  await expect(publish).toContainText(`Scheduled: ${staffTime(at)} (San Diego time)`);
  await reviewWriting(page, "editor-scheduled");
  expect(await (await request.get("/")).text()).not.toContain(title);
  await page.goto("/newsroom/posts?status=scheduled");
  await expect(page.getByRole("listitem").filter({ hasText: title })).toContainText(
    `Goes on the site ${staffTime(at)} (San Diego time).`,
  );
  await page.goBack();

  // The scheduling itself does not depend on the window's width, and waiting for it takes two
  // minutes: the phone-width run cancels its schedule instead, which is UI of its own.
  if (!isProject(testInfo, DESKTOP)) {
    await publish.getByRole("button", { name: "Cancel the schedule" }).click();
    await expect(publish).toContainText("Unpublished: not on the site");
    await page.goto("/newsroom/posts?status=scheduled");
    await expect(page.getByRole("link", { name: title })).toHaveCount(0);
    return;
  }

  // Polled from outside a browser, as a reader's first visit: no cache of ours in between.
  let firstSeen = 0;
  await expect
    .poll(
      async () => {
        const shown = (await (await request.get("/")).text()).includes(title);
        if (shown && !firstSeen) firstSeen = Date.now();
        return shown;
      },
      { timeout: 200_000, intervals: [2_000] },
    )
    .toBe(true);
  expect(firstSeen, "not before its time").toBeGreaterThanOrEqual(at.getTime());
  // Within the web process's 15 s check, with room for a busy machine.
  expect(firstSeen - at.getTime(), "ms after its time").toBeLessThan(60_000);

  await page.reload();
  await expect(page.getByRole("region", { name: "Publish" })).toContainText("Published");
  const address = await siteLink(page);
  const id = address.replace("/article/", "");
  for (const list of ["/local-news", "/rss.xml", "/local-news/rss.xml"]) {
    expect(await (await request.get(list)).text(), list).toContain(`/article/${id}`);
  }
  // The sitemap index names the monthly article sitemaps; one of them lists it.
  const index = await (await request.get("/sitemap.xml")).text();
  const files = [
    ...index.matchAll(/<loc>([^<]*\/sitemaps\/articles-\d{4}-\d{2}\.xml)<\/loc>/g),
  ].map((m) => new URL(m[1] ?? "").pathname);
  expect(files.length).toBeGreaterThan(0);
  const sitemaps = await Promise.all(files.map(async (f) => (await request.get(f)).text()));
  expect(sitemaps.some((xml) => xml.includes(`/article/${id}</loc>`))).toBe(true);

  // Dated when it went on the site.
  await page.goto(address);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const dated = Date.parse(
    (await page.locator("article time").first().getAttribute("datetime")) ?? "",
  );
  expect(dated).toBeGreaterThanOrEqual(at.getTime());
  expect(dated - at.getTime()).toBeLessThan(60_000);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a blog post in Markdown, published now, is on the blog with its Topics", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(90_000);
    const tag = unique(testInfo);
    const title = `Notes from the harbor walk (${tag})`;
    const slug = `harbor-walk-${tag.replace(/\W+/g, "-")}`;
    await signIn(page);
    const id = await newPost(page, "blog");
    // Without JavaScript the body is a Markdown text area.
    await expect(page.locator("textarea#post-body")).toBeVisible();
    await reviewWithoutScripts(browser, page, `/newsroom/posts/${id}`, "editor-blog-nojs");

    await page.getByLabel("Headline", { exact: true }).fill(title);
    await page.getByLabel(/^Bylines/).fill("Ana Ruiz");
    await page
      .getByLabel("Body", { exact: true })
      .fill(
        "## What we saw\n\nThe tide was **low** and the _gulls_ were loud.\n\n" +
          "- Shelter Island\n- Harbor Drive\n\nMore at [the port](https://www.portofsandiego.org/).",
      );
    await page.getByLabel(/^Meta description/).fill("A walk along the bay at low tide.");
    await page.getByLabel(/^Short-tail keywords/).fill("harbor, walking");
    await page.getByLabel(/^Long-tail keywords/).fill("san diego bay at low tide");
    await page.getByLabel(/^Address/).fill(slug);
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(notice(page, "Published: it is on the site now.")).toBeVisible();
    await review(page, "editor-blog-published-nojs", false);
    expect(await siteLink(page)).toBe(`/blog/${slug}`);
    // Fixed once published.
    await expect(page.getByLabel(/^Address/)).toBeDisabled();

    await page.goto("/blog");
    await expect(page.getByRole("link", { name: title })).toHaveAttribute("href", `/blog/${slug}`);
    await page.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    const article = page.locator(".article-body");
    await expect(article.getByRole("heading", { level: 2 })).toHaveText("What we saw");
    await expect(article.locator("strong")).toHaveText("low");
    await expect(article.getByRole("listitem")).toHaveText(["Shelter Island", "Harbor Drive"]);
    await expect(article.getByRole("link", { name: "the port" })).toHaveAttribute(
      "href",
      "https://www.portofsandiego.org/",
    );
    const topics = page.getByRole("region", { name: "Topics" });
    await expect(topics.getByRole("listitem")).toHaveText([
      "harbor",
      "walking",
      "san diego bay at low tide",
    ]);
  });

  test("hostile Markdown is published harmless; hostile files are refused, nothing typed lost", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const tag = unique(testInfo);
    const marker = `pwn${Date.now().toString(36)}`;
    const title = `Hostile Markdown story (${tag})`;
    await signIn(page);
    const id = await newPost(page, "story");
    await fillStory(page, title, "politics");
    const markdown = [
      "A paragraph before the attacks.",
      `<script>alert("${marker}-script")</script>`,
      `<img src=x onerror="alert('${marker}-img')">`,
      `[a javascript link](javascript:alert('${marker}-md'))`,
      `<a href="javascript:alert('${marker}-a')">an HTML link</a>`,
      `<a href="JaVaScRiPt&colon;alert('${marker}-entity')">an encoded link</a>`,
      `<svg onload="alert('${marker}-svg')"><circle r="4"/></svg>`,
      `<iframe src="javascript:alert('${marker}-frame')"></iframe>`,
      `<form action="javascript:alert('${marker}-form')"><button>Go</button></form>`,
      `<p style="background:url(javascript:alert('${marker}-css'))" onclick="alert('${marker}-click')">Styled</p>`,
      "A paragraph after the attacks.",
    ].join("\n\n");
    await page.getByLabel("Body", { exact: true }).fill(markdown);

    // Each hostile file is refused with its reason; the form comes back with what was typed.
    for (const { what, file, message } of await hostileFiles(`hostile ${tag}`)) {
      await test.step(`${what} named .jpg`, async () => {
        await page.getByLabel("Or upload one from this device").setInputFiles(file);
        await page.getByLabel(/^Alt text/).fill("Not really a picture");
        await page.getByRole("button", { name: "Save draft" }).click();
        await expect(page.getByRole("alert")).toHaveText(message);
        await expect(page.locator("#field-picture-error")).toHaveText(message);
        await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(title);
        await expect(page.getByLabel("Category", { exact: true })).toHaveValue("politics");
        await expect(page.getByLabel(/^Alt text/)).toHaveValue("Not really a picture");
        await expect(page.getByLabel("Body", { exact: true })).toHaveValue(
          /A paragraph after the attacks\./,
        );
      });
    }
    await review(page, "editor-refused-file-nojs", false);
    await reviewWithoutScripts(browser, page, `/newsroom/posts/${id}`, "editor-story-nojs");

    await page.getByLabel(/^Alt text/).fill("");
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(notice(page, "Published: it is on the site now.")).toBeVisible();
    const address = await siteLink(page);

    // Read by a browser that runs scripts: nothing of the attacks runs or is left.
    const reader = await browser.newContext({ baseURL: SITE, javaScriptEnabled: true });
    const story = await reader.newPage();
    const dialogs = failOnDialogs(story);
    await story.goto(address);
    await expect(story.getByRole("heading", { level: 1 })).toHaveText(title);
    const article = story.locator(".article-body");
    await expect(article).toContainText("A paragraph before the attacks.");
    await expect(article).toContainText("A paragraph after the attacks.");
    await expectHarmless(story, marker, dialogs);
    await reader.close();
  });
});

test("a hostile body sent from the rich editor is published harmless", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const marker = `pwn${Date.now().toString(36)}`;
  const title = `Hostile HTML story (${unique(testInfo)})`;
  const dialogs = failOnDialogs(page);
  await signIn(page);
  await newPost(page, "story");
  const body = await richBody(page);
  await fillStory(page, title, "business");

  // Pasted: the editor keeps the words and drops what its schema has no place for.
  await body.click();
  await body.evaluate((element, mark) => {
    const data = new DataTransfer();
    data.setData(
      "text/html",
      `<p>Pasted words.</p><img src="x" onerror="alert('${mark}-paste')">` +
        `<a href="javascript:alert('${mark}-paste-link')">pasted link</a><script>alert('${mark}')</script>`,
    );
    data.setData("text/plain", "Pasted words.");
    element.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, marker);
  await expect(body).toContainText("Pasted words.");
  expect(await body.innerHTML()).not.toMatch(/onerror|javascript:|<script/i);

  // Sent as it is, past the editor, with an SVG named .jpg: the file is refused first, and
  // nothing typed is lost.
  const hostile =
    `<p>Kept words.</p><script>alert('${marker}-script')</script>` +
    `<p><img src="x" onerror="alert('${marker}-img')"><a href="javascript:alert('${marker}-a')">link</a></p>` +
    `<svg><script>alert('${marker}-svg')</script></svg><iframe srcdoc="<script>alert('${marker}')</script>"></iframe>` +
    `<a href="&#106;avascript:alert('${marker}-entity')">entity link</a>` +
    `<p style="background:url(javascript:alert('${marker}-css'))">Last words.</p>`;
  const [svg] = await hostileFiles(`js ${unique(testInfo)}`);
  if (!svg) throw new Error("no hostile file");
  await page.getByLabel("Or upload one from this device").setInputFiles(svg.file);
  await sendBody(page, hostile, "Publish now");
  await expect(page.getByRole("alert")).toHaveText(svg.message);
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel(/^Dek/)).toHaveValue(
    "A month of hearings ends with a vote on Tuesday night.",
  );
  await reviewWriting(page, "editor-refused-file");

  // Again without the file; the hostile body is sent once more, as it was.
  await page.getByLabel("Or upload one from this device").setInputFiles([]);
  await sendBody(page, hostile, "Publish now");
  await expect(notice(page, "Published: it is on the site now.")).toBeVisible();
  const address = await siteLink(page);
  // Loaded again, the editor shows the sanitised body. (Until then it shows what it showed
  // before: it is not drawn again from the saved body after a Save or Publish.)
  await page.reload();
  await expect(await richBody(page)).toContainText("Last words.");
  expect(await (await richBody(page)).innerHTML()).not.toMatch(/onerror|javascript:|<script/i);

  const reader = await browser.newContext({ baseURL: SITE });
  const story = await reader.newPage();
  const readerDialogs = failOnDialogs(story);
  await story.goto(address);
  await expect(story.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(story.locator(".article-body")).toContainText("Kept words.");
  await expect(story.locator(".article-body")).toContainText("Last words.");
  await expectHarmless(story, marker, readerDialogs);
  await reader.close();
  expect(dialogs, "dialogs opened in the editor").toEqual([]);
});

test("an earlier revision is compared and restored", async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = unique(testInfo);
  const first = `Pier repairs begin in spring (${tag})`;
  const second = `Pier repairs delayed until autumn (${tag})`;
  await signIn(page);
  const id = await newPost(page, "story");
  await page.getByLabel("Headline", { exact: true }).fill(first);
  await writeBody(page, "Work on the pier was to begin in March.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();

  await page.getByLabel("Headline", { exact: true }).fill(second);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(second);

  await page.getByRole("link", { name: "Revisions" }).click();
  await expect(page).toHaveURL(new RegExp(`/newsroom/posts/${id}/revisions$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Revisions of “${second}”`);
  // Every save, newest first; a revision of each headline, by the ids their Restore buttons send.
  const saves = page.getByRole("region", { name: "Every save" }).getByRole("listitem");
  const revisionOf = async (headline: string) =>
    saves.filter({ hasText: headline }).first().locator('input[name="revision"]').inputValue();
  const older = await revisionOf(first);
  const newer = await revisionOf(second);
  // Each select is named by its label and the revision it shows.
  await page.getByLabel(/^Compare/).selectOption(older);
  await page.getByLabel(/^with/).selectOption(newer);
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`older=${older}&newer=${newer}`));
  const changes = page.getByRole("region", { name: "What changed" });
  const headline = changes
    .locator("div")
    .filter({ has: page.getByRole("term").filter({ hasText: /^Headline$/ }) });
  await expect(headline.locator("del").first()).toBeVisible();
  const removed = (await headline.locator("del").allTextContents()).join(" ");
  const added = (await headline.locator("ins").allTextContents()).join(" ");
  expect(removed).toMatch(/begin.*spring/);
  expect(added).toMatch(/delayed.*autumn/);
  expect(removed).not.toContain("Pier repairs");
  await reviewWriting(page, "revisions");

  await saves
    .filter({ hasText: first })
    .first()
    .getByRole("button", { name: /^Restore/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/newsroom/posts/${id}\\?done=save$`));
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue(first);
  await expect(await richBody(page)).toContainText("Work on the pier was to begin in March.");
  await page.getByRole("link", { name: "Revisions" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Revisions of “${first}”`);
  await expect(saves.first()).toContainText("Restored");
});

test("long picture names and revision labels stay inside a phone's width", async ({
  page,
}, testInfo) => {
  test.skip(isProject(testInfo, DESKTOP), "The desk width's columns hold these selects.");
  await signIn(page);
  const id = await newPost(page, "story");
  await richBody(page);
  const alt = `A long description of the picture, as alt text should be (${unique(testInfo)})`;
  await page.getByLabel(/^Alt text/).fill(alt);
  await page.getByLabel("Credit", { exact: true }).fill("Sample Photographer for the Ledger");
  await expect(autosaved(page)).toBeVisible({ timeout: 15_000 });
  await page.getByLabel("Or upload one from this device").setInputFiles({
    name: "long.jpg",
    mimeType: "image/jpeg",
    buffer: await photo(alt),
  });
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(notice(page, "Saved. Nothing changes on the site until you publish.")).toBeVisible();
  const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
  await page.goto(`/newsroom/posts/${id}`);
  await richBody(page);
  await page.screenshot({
    path: testInfo.outputPath("editor-long-select-375.png"),
    fullPage: true,
  });
  const editorWidth = await wide();
  await page.goto(`/newsroom/posts/${id}/revisions`);
  await page.screenshot({ path: testInfo.outputPath("revisions-375.png"), fullPage: true });
  expect({ editor: editorWidth, revisions: await wide() }).toEqual({ editor: 375, revisions: 375 });
});

// The one place the JavaScript editor is scanned with the form's alert shown.
test("publishing an incomplete story says what it still needs", async ({ page }) => {
  await signIn(page);
  await newPost(page, "story");
  await richBody(page);
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByRole("alert")).toContainText("Not published yet:");
  await expect(page.getByRole("alert")).toContainText("Give the headline.");
  await expect(page.getByRole("alert")).toContainText("Choose a category.");
  await expect(page.getByRole("region", { name: "Publish" })).toContainText(
    "Draft: not on the site",
  );
  await reviewWriting(page, "editor-incomplete");
});
