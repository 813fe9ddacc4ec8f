import { expectNoSeriousViolations } from "./axe";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { loadContent, type LegalText } from "../server/content/load";
import { slugOf, waitForHydration } from "./helpers";
import { sanDiegoFormat } from "../shared/san-diego-time";

const { site, about, faq, events, partners, ...legal } = loadContent("content");
const aboutSection = (heading: string) => about.sections.find((s) => s.heading === heading);
const ABOUT = {
  ...about,
  story: aboutSection("Our Story")?.paragraphs ?? [],
  mission: aboutSection("Our Mission")?.list ?? [],
  team: aboutSection("Our Team")?.paragraphs ?? [],
};
const FAQ_TOPICS = faq.topics;
const { featured: FEATURED_EVENTS, categories: EVENT_CATEGORIES } = events;
const LOCAL_EVENT_CATEGORIES = events.localCategories;
const { images: PARTNER_IMAGES, points: PARTNER_POINTS } = partners;
const { privacyPolicy: PRIVACY_POLICY, termsOfService: TERMS_OF_SERVICE } = legal;
const { privacy: PRIVACY_SHORT, terms: TERMS_SHORT } = legal;

const EDITORIAL_ROUTES = [
  "/about-us",
  "/faq",
  "/privacy-policy",
  "/terms-of-service",
  "/privacy",
  "/terms",
  "/partners",
  "/events",
  "/local-events",
] as const;

const FAQ_COUNT = FAQ_TOPICS.reduce((n, topic) => n + topic.items.length, 0);

function faqItems(page: Page): Locator {
  return page.locator('main details[name="faq"]');
}

/** A section of the page, found by the name its heading gives it. */
function region(page: Page, name: string): Locator {
  return page.getByRole("main").getByRole("region", { name, exact: true });
}

/** Opens the first item, then the second, then closes the second; the group never has two open. */
async function expectOneOpenAtATime(page: Page) {
  const first = faqItems(page).nth(0);
  const second = faqItems(page).nth(1);
  await expect(faqItems(page)).toHaveCount(FAQ_COUNT);
  await expect(page.locator("main details[open]")).toHaveCount(0);

  await first.locator("summary").click();
  await expect(first).toHaveAttribute("open", "");
  await expect(first.locator("p").first()).toBeVisible();

  await second.locator("summary").click();
  await expect(second).toHaveAttribute("open", "");
  await expect(first).not.toHaveAttribute("open");
  await expect(page.locator("main details[open]")).toHaveCount(1);

  await second.locator("summary").click();
  await expect(second).not.toHaveAttribute("open");
  await expect(page.locator("main details[open]")).toHaveCount(0);
}

test.describe("FAQ", () => {
  test("lists every question under its topic, with a table of contents", async ({ page }) => {
    await page.goto("/faq");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Frequently Asked Questions");
    expect(FAQ_COUNT).toBeGreaterThanOrEqual(100);
    await expect(faqItems(page)).toHaveCount(FAQ_COUNT);
    await expect(page.locator("main details > summary")).toHaveCount(FAQ_COUNT);

    const contents = page.getByRole("navigation", { name: "FAQ topics" });
    for (const topic of FAQ_TOPICS) {
      const heading = page.locator(`main h2#${topic.id}`);
      await expect(heading).toHaveText(topic.title);
      await expect(contents.getByRole("link", { name: topic.title })).toHaveAttribute(
        "href",
        `#${topic.id}`,
      );
      await expect(region(page, topic.title).locator("details")).toHaveCount(topic.items.length);
    }
    const firstQuestion = FAQ_TOPICS[0]?.items[0]?.question ?? "";
    await expect(faqItems(page).first().locator("summary")).toContainText(firstQuestion);

    const still = region(page, "Still Have Questions?");
    await expect(still.getByRole("link", { name: "Contact Us" })).toHaveAttribute(
      "href",
      "/contact-us",
    );
  });

  test("keeps one answer open at a time, and the open one closes", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    await expectOneOpenAtATime(page);
  });

  test("answers split into paragraphs and link the pages they name", async ({ page }) => {
    await page.goto("/faq");
    const withPath = FAQ_TOPICS.flatMap((t) => t.items).findIndex((i) =>
      i.answer.includes("(/contact-us)"),
    );
    expect(withPath).toBeGreaterThanOrEqual(0);
    const item = faqItems(page).nth(withPath);
    await item.locator("summary").click();
    await expect(item.getByRole("link", { name: "/contact-us" }).first()).toHaveAttribute(
      "href",
      "/contact-us",
    );
    const multi = FAQ_TOPICS.flatMap((t) => t.items).findIndex((i) => i.answer.includes("\n\n"));
    const paragraphs = FAQ_TOPICS.flatMap((t) => t.items)[multi]?.answer.split("\n\n").length ?? 0;
    expect(paragraphs).toBeGreaterThan(1);
    await expect(faqItems(page).nth(multi).locator("p")).toHaveCount(paragraphs);
  });

  test("opens with the keyboard", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    // The last link of the contents comes right before the first question in tab order.
    const lastTopic = FAQ_TOPICS.at(-1)?.title ?? "";
    await page
      .getByRole("navigation", { name: "FAQ topics" })
      .getByRole("link", { name: lastTopic })
      .focus();
    await page.keyboard.press("Tab");
    const first = faqItems(page).first();
    await expect(first.locator("summary")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(first).toHaveAttribute("open", "");
    await page.keyboard.press("Enter");
    await expect(first).not.toHaveAttribute("open");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("keeps one answer open at a time, and the open one closes", async ({ page }) => {
      await page.goto("/faq");
      await expectOneOpenAtATime(page);
    });
  });
});

test.describe("About Us", () => {
  test("story, mission, team, values, four profiles, office and careers", async ({ page }) => {
    await page.goto("/about-us");
    const main = page.getByRole("main");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Us");
    await expect(main).toContainText("Founded in 2020");
    expect(site.foundingYear).toBe(2020);

    await expect(region(page, "Our Story").locator("p")).toHaveCount(ABOUT.story.length);
    await expect(region(page, "Our Mission").getByRole("listitem")).toHaveCount(
      ABOUT.mission.length,
    );
    await expect(region(page, "Our Team").locator("p")).toHaveCount(ABOUT.team.length);
    await expect(region(page, "Our Values").getByRole("heading", { level: 3 })).toHaveText(
      ABOUT.values.map((v) => v.title),
    );

    const cards = region(page, "Editorial Team").getByRole("article");
    await expect(cards).toHaveCount(4);
    for (const [i, member] of ABOUT.editorialTeam.entries()) {
      const card = cards.nth(i);
      await expect(card.getByRole("heading", { level: 3 })).toHaveText(member.name);
      await expect(card).toContainText(member.initials);
      await expect(card).toContainText(member.role);
      await expect(card).toContainText(member.bio);
    }

    const office = region(page, "Visit Our Office");
    const { phone, email, address } = site.contact;
    await expect(office).toContainText(address.street);
    await expect(office).toContainText(`${address.locality}, ${address.region}`);
    await expect(office.getByRole("link", { name: phone })).toHaveAttribute(
      "href",
      `tel:${phone.replace(/[^+\d]/g, "")}`,
    );
    await expect(office.getByRole("link", { name: email })).toHaveAttribute(
      "href",
      `mailto:${email}`,
    );

    // The site publishes no charging-station listings (only /privacy and /terms mention them).
    await expect(main).not.toContainText(/charging station/i);

    const careers = region(page, "Careers");
    await expect(careers).toContainText(ABOUT.careers);
    await expect(careers.getByRole("link")).toHaveAttribute("href", "/contact-us");
  });
});

const LEGAL: { route: string; text: LegalText; long: boolean; sibling: string }[] = [
  { route: "/privacy-policy", text: PRIVACY_POLICY, long: true, sibling: "/terms-of-service" },
  { route: "/terms-of-service", text: TERMS_OF_SERVICE, long: true, sibling: "/privacy-policy" },
  { route: "/privacy", text: PRIVACY_SHORT, long: false, sibling: "/privacy-policy" },
  { route: "/terms", text: TERMS_SHORT, long: false, sibling: "/terms-of-service" },
];

test.describe("legal pages", () => {
  for (const { route, text, long, sibling } of LEGAL) {
    test(route, async ({ page }) => {
      await page.goto(route);
      const main = page.getByRole("main");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        "content",
        text.description,
      );
      for (const paragraph of text.intro) await expect(main).toContainText(paragraph);
      for (const section of text.sections) {
        await expect(main.getByRole("heading", { level: 2, name: section.heading })).toHaveCount(1);
      }
      const robots = page.locator('meta[name="robots"]');
      const quick = page.getByRole("navigation", { name: "Quick links" });
      await expect(quick.getByRole("link").first()).toHaveAttribute("href", sibling);
      if (long) {
        await expect(main).toContainText("Last updated: April 26, 2025");
        await expect(robots).toHaveAttribute("content", /^noindex\b/);
        await expect(quick.getByRole("link", { name: "About Us" })).toHaveAttribute(
          "href",
          "/about-us",
        );
        await expect(quick.getByRole("link", { name: "Contact Us" })).toHaveAttribute(
          "href",
          "/contact-us",
        );
      } else {
        await expect(main).not.toContainText("Last updated");
        await expect(robots).toHaveCount(0);
        await expect(main).toContainText(/charging station/i);
      }
    });
  }
});

test.describe("Partners", () => {
  test("three partner cards with loaded images, and Partner With Us", async ({ page }) => {
    await page.goto("/partners");
    const cards = page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: page.locator("img") });
    await expect(cards).toHaveCount(3);
    for (const [i, partner] of PARTNER_IMAGES.entries()) {
      const card = cards.nth(i);
      await expect(card.getByRole("heading")).toHaveText(`Partner ${i + 1}`);
      const img = card.getByRole("img", { name: partner.alt });
      await expect(img).toHaveAttribute("src", partner.url);
      await expect(img).toHaveAttribute("width", /^\d+$/);
      await expect(img).toHaveAttribute("height", /^\d+$/);
      await img.scrollIntoViewIfNeeded();
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
        .toBeGreaterThan(0);
    }
    await expect(cards.nth(2).locator("img")).toHaveAttribute("loading", "lazy");

    const partnerWithUs = region(page, "Partner With Us");
    await expect(partnerWithUs.getByRole("heading", { level: 3 })).toHaveText(
      PARTNER_POINTS.map((p) => p.title),
    );
    await expect(partnerWithUs.getByRole("heading", { level: 3 })).toHaveText([
      "Community Focus",
      "Quality Standards",
      "Innovation",
    ]);
    await expect(partnerWithUs.getByRole("link")).toHaveAttribute("href", "/contact-us");
  });
});

const eventDate = sanDiegoFormat({
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
});

test.describe("events", () => {
  test("/events: calendar, four featured events, six categories, Submit Event", async ({
    page,
  }) => {
    await page.goto("/events");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Events");
    // The sample calendar waits for a click (e2e/embeds.spec.ts).
    const calendar = region(page, "Holiday Calendar");
    await expect(calendar.locator("iframe")).toHaveCount(0);
    await expect(calendar.getByRole("link", { name: "Show the holiday calendar" })).toBeVisible();

    const featured = region(page, "Featured Events").getByRole("listitem");
    await expect(featured).toHaveCount(4);
    for (const [i, event] of FEATURED_EVENTS.entries()) {
      const item = featured.nth(i);
      await expect(item.getByRole("heading")).toHaveText(event.title);
      const time = item.locator("time");
      await expect(time).toHaveAttribute("datetime", event.date);
      await expect(time).toHaveText(eventDate.format(new Date(event.date)));
      await expect(item).toContainText(event.place);
    }

    await expect(region(page, "Event Categories").getByRole("listitem")).toHaveCount(6);
    await expect(region(page, "Event Categories").getByRole("heading", { level: 3 })).toHaveText(
      EVENT_CATEGORIES.map((c) => c.title),
    );
    await expect(
      page.getByRole("main").getByRole("link", { name: "Submit Event", exact: true }),
    ).toHaveAttribute("href", "/contact-us?category=event");
  });

  test("/local-events: feed, submit blurb, five categories, newsletter", async ({ page }) => {
    await page.goto("/local-events");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Local Events");
    const feed = region(page, "Community Feed");
    await expect(feed.locator("iframe")).toHaveCount(0);
    await expect(feed.getByRole("link", { name: "Show the community events feed" })).toBeVisible();

    await expect(region(page, "Event Categories").getByRole("listitem")).toHaveCount(5);
    await expect(region(page, "Event Categories").getByRole("heading", { level: 3 })).toHaveText(
      LOCAL_EVENT_CATEGORIES.map((c) => c.title),
    );
    await expect(
      region(page, "Submit Your Event").getByRole("link", { name: "Submit Event", exact: true }),
    ).toHaveAttribute("href", "/contact-us?category=event");
    await expect(
      page.getByRole("main").getByRole("textbox", { name: "Email address" }),
    ).toBeVisible();
    // The blurb above the newsletter box must not promise another rhythm than the box.
    const loop = region(page, "Stay in the Loop");
    await expect(loop).toContainText("every morning");
    await expect(loop).not.toContainText(/every week|weekly/i);
  });

  for (const route of ["/events", "/local-events"]) {
    test(`${route}: the event categories are text, nothing that looks clickable`, async ({
      page,
    }) => {
      await page.goto(route);
      const items = region(page, "Event Categories").getByRole("listitem");
      await expect(items.first()).toBeVisible();
      await expect(region(page, "Event Categories").getByRole("link")).toHaveCount(0);
      const look = (item: Locator) =>
        item.evaluate((el) => {
          const style = getComputedStyle(el);
          const heading = el.querySelector("h3");
          return {
            cursor: style.cursor,
            shadow: style.boxShadow,
            background: style.backgroundColor,
            underline: heading ? getComputedStyle(heading).textDecorationLine : "",
          };
        });
      for (const item of await items.all()) {
        const before = await look(item);
        // No card raised off the page, no hand, no underline, and hovering changes nothing.
        expect(before).toEqual({
          cursor: "auto",
          shadow: "none",
          background: "rgba(0, 0, 0, 0)",
          underline: "none",
        });
        await item.hover();
        expect(await look(item)).toEqual(before);
      }
    });
  }
});

test.describe("every editorial page", () => {
  for (const route of EDITORIAL_ROUTES) {
    test(`${route}: headings in order, no sideways scroll, no serious axe violations`, async ({
      page,
    }) => {
      await page.goto(route);
      await waitForHydration(page);

      const levels = await page
        .locator("main :is(h1, h2, h3, h4, h5, h6)")
        .evaluateAll((els) => els.map((el) => Number(el.tagName.slice(1))));
      expect(levels[0], "the first heading is the h1").toBe(1);
      expect(
        levels.filter((l) => l === 1),
        "one h1",
      ).toHaveLength(1);
      for (const [i, level] of levels.entries()) {
        const previous = levels[i - 1] ?? 0;
        expect(level - previous, `heading ${i + 1} skips a level`).toBeLessThanOrEqual(1);
      }

      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);

      await expectNoSeriousViolations(page, route);
    });
  }

  test("/faq with an answer open: no serious axe violations", async ({ page }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    await faqItems(page).first().locator("summary").click();
    await expectNoSeriousViolations(page, "/faq with an answer open");
  });
});

test("full-page screenshots of the editorial pages", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  for (const route of EDITORIAL_ROUTES) {
    await test.step(route, async () => {
      await page.goto(route);
      await waitForHydration(page);
      // Lazy images come in only near the viewport: load them all before the picture.
      await page.evaluate(() => {
        for (const img of Array.from(document.images)) img.loading = "eager";
      });
      await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
      await page.screenshot({
        path: testInfo.outputPath(`${testInfo.project.name}-${slugOf(route)}.png`),
        fullPage: true,
      });
    });
  }
});
