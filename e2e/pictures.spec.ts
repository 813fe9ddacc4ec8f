import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { PHOTOS } from "../scripts/e2e-photos.js";
import { shapeSize } from "../shared/picture";
import { expectNoSeriousViolations } from "./axe";
import { DESKTOP, drawEverything, MOBILE, onlyInProject, waitForHydration } from "./helpers";

// Feed photos served from our own origin (decision 022). The browser tests' site takes Local
// News from a copy of its sample feed whose pictures are JPEGs on a picture host of their own
// (scripts/e2e-photos.js), fetched by ingest before the site starts; the host is closed after.

const COPY = /^\/images\/([0-9a-f]{64})\/(?:wide-)?(\d+)\.avif$/;
const DEFAULT_IMAGE = "/images/default-article.svg";

/** The newest Local News story: first in the slider, first card of /local-news. */
async function firstLocalStory(page: Page): Promise<string> {
  await page.goto("/local-news");
  const href = await page.getByRole("main").locator("article h3 a").first().getAttribute("href");
  if (!href) throw new Error("no Local News story");
  return href;
}

/**
 * Records the layout shifts the page reports from its very start (CLS, as the browser counts it),
 * each with what moved, from where to where and when, so a failure says which element jumped.
 */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    };
    const w = window as unknown as { layoutShifts: unknown[] };
    w.layoutShifts = [];
    const describe = (node: Node | null): string => {
      if (!(node instanceof Element)) return node?.nodeName ?? "(gone)";
      const id = node.id ? `#${node.id}` : "";
      const text = (node.textContent ?? "").trim().slice(0, 40);
      return `${node.tagName.toLowerCase()}${id} "${text}"`;
    };
    const box = (r: DOMRectReadOnly) => [r.x, r.y, r.width, r.height].map(Math.round).join(",");
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        w.layoutShifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          scrollY: Math.round(window.scrollY),
          moved: entry.sources.map(
            (s) => `${describe(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`,
          ),
        });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The shifts recorded so far: none on a page that does not jump. */
const layoutShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { layoutShifts: unknown[] }).layoutShifts);

/**
 * Loads every picture, lazy ones too (those of the slider's sideways strip never come near the
 * viewport), and waits until each has finished.
 */
async function loadEveryPicture(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const img of Array.from(document.images)) img.loading = "eager";
  });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
}

/** The candidates of a `srcset`: each copy's path and listed width. */
const candidates = (srcset: string) =>
  srcset.split(", ").map((candidate) => {
    const [path = "", width = ""] = candidate.split(" ");
    return { path, width: Number(width.replace("w", "")) };
  });

test.describe("pages with stored pictures", () => {
  for (const which of ["home", "category", "article"] as const) {
    test(`${which}: our own copies only, the largest preloaded, sized, no shift`, async ({
      page,
      baseURL,
    }, testInfo) => {
      const path =
        which === "home" ? "/" : which === "category" ? "/local-news" : await firstLocalStory(page);
      const origin = new URL(baseURL ?? "").origin;
      const elsewhere: string[] = [];
      const pictures: string[] = [];
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.origin !== origin) elsewhere.push(request.url());
        if (request.resourceType() === "image") pictures.push(url.pathname);
      });
      await recordLayoutShifts(page);
      await page.goto(path);
      await waitForHydration(page);

      // The page's largest picture: a stored one, its AVIF copy chosen, preloaded from the head.
      const largest = page.locator("main picture img[fetchpriority=high]");
      await expect(largest).toHaveCount(1);
      await expect(largest).toHaveJSProperty("complete", true);
      const chosen = await largest.evaluate((img: HTMLImageElement) => ({
        src: new URL(img.currentSrc).pathname,
        drawn: img.getBoundingClientRect().width * window.devicePixelRatio,
        width: Number(img.getAttribute("width")),
        height: Number(img.getAttribute("height")),
        avif: img.parentElement?.querySelector("source[type='image/avif']")?.getAttribute("srcset"),
        sizes: img.sizes,
      }));
      const [, hash] = COPY.exec(chosen.src) ?? [];
      expect(hash, `${chosen.src} is an AVIF copy of ours`).toBeDefined();
      // A sensible copy: one of the two listed either side of the width the slot draws.
      const listed = candidates(chosen.avif ?? "");
      const widths = listed.map((c) => c.width);
      const below = widths.filter((w) => w <= chosen.drawn).at(-1);
      const above = widths.find((w) => w >= chosen.drawn) ?? widths.at(-1);
      const actual = listed.find((c) => c.path === chosen.src)?.width;
      expect([below, above], `${actual} px for ${chosen.drawn} px drawn`).toContain(actual);
      const preload = page.locator(
        'head link[rel=preload][as=image][type="image/avif"][fetchpriority=high]',
      );
      await expect(preload).toHaveCount(1);
      await expect(preload).toHaveAttribute("imagesrcset", chosen.avif ?? "");
      await expect(preload).toHaveAttribute("imagesizes", chosen.sizes);
      await expect(page.locator(`head link[rel=preload][href="${DEFAULT_IMAGE}"]`)).toHaveCount(0);

      // The reserved box is the size of the part the slot shows of one of the photos the feed
      // linked: these slots draw a 16:9 box, so their copies are the photos' middle 16:9.
      const sizes = Object.values(PHOTOS).map((p) => {
        const part = shapeSize(p, "wide");
        return `${part.width}x${part.height}`;
      });
      expect(sizes).toContain(`${chosen.width}x${chosen.height}`);
      const widest = await page.request.get(listed.at(-1)?.path.replace(".avif", ".jpg") ?? "");
      const copy = await sharp(await widest.body()).metadata();
      expect((copy.width ?? 0) / (copy.height ?? 1)).toBeCloseTo(chosen.width / chosen.height, 2);

      await loadEveryPicture(page);
      expect(await layoutShifts(page)).toEqual([]);
      expect(elsewhere).toEqual([]);
      expect(pictures.filter((p) => COPY.test(p)).length).toBeGreaterThan(0);
      await expectNoSeriousViolations(page, path);
      await drawEverything(page);
      await page.screenshot({
        path: testInfo.outputPath(`${testInfo.project.name}-${which}.png`),
        fullPage: true,
      });
    });
  }

  test("an article's social and search previews name our crops", async ({ page, baseURL }) => {
    await page.goto(await firstLocalStory(page));
    const og = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(og).toMatch(new RegExp(`^${baseURL}/images/[0-9a-f]{64}/og\\.jpg$`));
    const hash = og?.split("/").at(-2) ?? "";
    const crop = await page.request.get(og ?? "");
    expect(crop.headers()["content-type"]).toBe("image/jpeg");
    const meta = await sharp(await crop.body()).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1200, 630]);

    const graph = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
    ) as { "@graph": { "@type": string; image?: string[] }[] };
    const article = graph["@graph"].find((thing) => thing["@type"] === "NewsArticle");
    expect(article?.image).toEqual(
      ["16x9", "4x3", "1x1"].map((crop) => `${baseURL}/images/${hash}/${crop}.jpg`),
    );
  });

  test("a copy that cannot be had shows the default picture", async ({ page }) => {
    const story = await firstLocalStory(page);
    await page.route(/\/images\/[0-9a-f]{64}\/(?:wide-)?\d+\.(avif|webp|jpg)$/, (route) =>
      route.request().url().endsWith(".webp") ? route.abort() : route.fulfill({ status: 404 }),
    );
    await page.goto(story);
    const hero = page.getByRole("main").locator("figure img");
    await expect(hero).toHaveJSProperty("complete", true);
    // currentSrc is "" for a moment while the picture falls back: polled on, not thrown.
    await expect
      .poll(() =>
        hero.evaluate((img: HTMLImageElement) =>
          img.currentSrc ? new URL(img.currentSrc).pathname : "",
        ),
      )
      .toBe(DEFAULT_IMAGE);
    expect(await hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole("main").locator("figure picture source")).toHaveCount(0);
  });
});

test.describe("slot sizes follow the layout", () => {
  onlyInProject(DESKTOP, "every width is set by the test itself");

  /**
   * What `sizes` says the picture's width is at the current viewport: the width a probe image
   * declared as a 160 px copy of 160w draws at, which the browser makes the source size.
   */
  async function sizesAndBoxes(page: Page) {
    return page.locator("main picture img").evaluateAll(async (imgs) =>
      Promise.all(
        (imgs as HTMLImageElement[])
          .filter((img) => img.getBoundingClientRect().width > 0)
          .map(async (img) => {
            const hash = /\/images\/([0-9a-f]{64})\//.exec(img.getAttribute("src") ?? "")?.[1];
            const probe = new Image();
            probe.sizes = img.sizes;
            probe.srcset = `/images/${hash}/160.jpg 160w`;
            await probe.decode();
            const box = img.getBoundingClientRect();
            // A card's or slide's box has an aspect ratio (16:9, the slider 21:9 from md on),
            // which its picture fills whatever its own shape (object-cover).
            const frame = img.parentElement?.parentElement;
            const [w = 0, h = 0] = (frame ? getComputedStyle(frame).aspectRatio : "auto")
              .split("/")
              .map(Number);
            return {
              alt: img.alt,
              box: box.width,
              sizes: probe.naturalWidth,
              card: w > 0 && h > 0,
              ratio: `${w}:${h}`,
              // The picture covers its box, and the box keeps its ratio (a photo of another
              // shape must not stretch it) unless a height cap holds it (the slider's 28rem).
              fills: ((frameBox) =>
                frameBox !== undefined &&
                Math.abs(box.height - frameBox.height) <= 1 &&
                Math.abs(box.width - frameBox.width) <= 1 &&
                (getComputedStyle(frame as Element).maxHeight !== "none" ||
                  Math.abs(frameBox.height - (frameBox.width * h) / w) <= 1))(
                frame?.getBoundingClientRect(),
              ),
            };
          }),
      ),
    );
  }

  for (const width of [320, 375, 768, 1280]) {
    test(`at ${width} px every stored picture's sizes is its drawn width`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const scrollbar = await page.evaluate(
        () => window.innerWidth - document.documentElement.clientWidth,
      );
      const paths = [
        "/",
        "/local-news",
        await firstLocalStory(page),
        "/archives",
        // Local News' stories have stored photos; "harbor" finds the Harbor Drive story's
        // pictureless second outlet now, its group's best-ranked version (decision 032).
        "/search?q=pier",
      ];
      for (const path of paths) {
        await page.goto(path);
        const found = await sizesAndBoxes(page);
        // Search results show no pictures under 640 px.
        if (!path.startsWith("/search") || width >= 640) {
          expect(found.length, `stored pictures on ${path}`).toBeGreaterThan(0);
        }
        for (const { alt, box, sizes, card, ratio, fills } of found) {
          if (card) expect(fills, `${path} at ${width}: ${alt} fills its ${ratio} box`).toBe(true);
          // 100vw counts a classic scrollbar, which the layout does not have.
          expect(sizes, `${path} at ${width}: ${alt}`).toBeGreaterThanOrEqual(box - 1);
          expect(sizes, `${path} at ${width}: ${alt}`).toBeLessThanOrEqual(box + scrollbar + 1);
        }
      }
    });
  }
});

for (const scale of [2, 3]) {
  test.describe(`a phone of ${scale} device pixels per CSS pixel`, () => {
    test.use({ deviceScaleFactor: scale });
    onlyInProject(MOBILE, "a phone's screen");

    test("takes copies as wide as its screen draws them", async ({ page }) => {
      await page.goto("/");
      const slide = page.locator("main picture img[fetchpriority=high]");
      await expect(slide).toHaveJSProperty("complete", true);
      const { drawn, file } = await slide.evaluate((img: HTMLImageElement) => ({
        drawn: img.getBoundingClientRect().width * window.devicePixelRatio,
        file: new URL(img.currentSrc).pathname.split("/").at(-1),
      }));
      const width = Number(/(\d+)\.avif$/.exec(file ?? "")?.[1]);
      // 343 CSS px drawn: 686 or 1029 device pixels, from the 640-1600 px copies.
      expect(file).toMatch(/\.avif$/);
      expect(width, `${file} for ${drawn} device pixels`).toBeGreaterThanOrEqual(drawn / 1.5);
      expect(width, `${file} for ${drawn} device pixels`).toBeLessThanOrEqual(drawn * 1.6);
      test.info().annotations.push({ type: "copy", description: `${file} for ${drawn} px` });
    });
  });
}

// Long lists of cards (decision 022, "Measuring LCP"): home's Latest News, a category's stories
// after the first, shown all. The list's items are chosen by a selector.
const LISTS = [
  {
    name: "home's Latest News",
    path: "/",
    items: "main section:has(> h2:text-is('Latest News')) li",
  },
  {
    name: "a category's stories",
    path: "/local-news?all=1",
    items: "main li[id^='local-news-story-']",
  },
];

for (const list of LISTS) {
  test(`${list.name}: cards drawn and pictures asked for only as they come near`, async ({
    page,
  }) => {
    const asked = new Set<string>();
    page.on("request", (request) => {
      if (request.resourceType() === "image") asked.add(new URL(request.url()).pathname);
    });
    await recordLayoutShifts(page);
    await page.goto(list.path);
    await page.waitForLoadState("networkidle");
    // Mark the list's items, for the page's own script below.
    const marked = await page
      .locator(list.items)
      .evaluateAll((items) => items.map((item) => item.setAttribute("data-listed", "")).length);
    expect(marked).toBeGreaterThan(4);
    const viewport = page.viewportSize()?.height ?? 0;
    /** Every picture on the page: whether it is in one of the list's cards, where, and its files. */
    const pictures = () =>
      page.locator("main img").evaluateAll((imgs) =>
        imgs.map((img) => {
          const card = Boolean(img.closest("[data-listed]"));
          // What content-visibility skips is inside the card's item, not the item itself.
          const inCard = img.closest("li > *");
          const files = [img, ...Array.from(img.parentElement?.querySelectorAll("source") ?? [])]
            .flatMap((el) => [
              el.getAttribute("src"),
              ...(el.getAttribute("srcset") ?? "").split(","),
            ])
            .map((candidate) => candidate?.trim().split(" ")[0])
            .filter((file): file is string => Boolean(file))
            .map((file) => new URL(file, location.href).pathname);
          return {
            card,
            top: img.getBoundingClientRect().top + window.scrollY,
            drawn: inCard ? inCard.checkVisibility({ contentVisibilityAuto: true }) : true,
            complete: (img as HTMLImageElement).complete,
            files,
          };
        }),
      );
    // Cards not drawn yet keep the column's width: the page is as wide as the screen.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    const before = await pictures();
    const cards = before.filter((p) => p.card);
    expect(cards.length).toBeGreaterThan(4);
    // The first card of a category may be its largest picture: drawn at once.
    if (list.path !== "/") expect(cards[0]?.drawn).toBe(true);
    // A lazy picture alone is asked for 1250 px ahead of the screen; a card a screen and a half
    // below it is not even drawn yet, so its picture waits (those shown elsewhere too aside).
    const far = cards.filter((p) => p.top > viewport * 2.5);
    expect(far.length).toBeGreaterThan(0);
    expect(far.filter((p) => p.drawn)).toEqual([]);
    const near = new Set(before.filter((p) => !far.includes(p)).flatMap((p) => p.files));
    const own = far.filter((p) => !p.files.some((file) => near.has(file)));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((p) => p.files.some((file) => asked.has(file)))).toEqual([]);

    // Down a screen at a time, as a reader scrolls: every card is drawn, every picture comes,
    // and nothing on the screen moves.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += viewport * 0.8) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(100);
    }
    await expect
      .poll(async () => (await pictures()).filter((p) => p.card && !p.complete))
      .toEqual([]);
    const after = await pictures();
    expect(after.filter((p) => p.card && !p.files.some((file) => asked.has(file)))).toEqual([]);
    expect(await layoutShifts(page)).toEqual([]);

    // Back at the top the cards far below are undrawn again (their heights kept); a keyboard reader
    // reaches one as any other: focus draws it and brings it in view.
    await page.evaluate(() => window.scrollTo(0, 0));
    const lastLink = page.locator(`${list.items} article h3 a`).last();
    await expect
      .poll(() => lastLink.evaluate((a) => a.checkVisibility({ contentVisibilityAuto: true })))
      .toBe(false);
    await lastLink.focus();
    await expect(lastLink).toBeFocused();
    await expect(lastLink).toBeInViewport();
    expect(await lastLink.evaluate((a) => a.checkVisibility({ contentVisibilityAuto: true }))).toBe(
      true,
    );
  });
}
