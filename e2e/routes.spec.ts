import { expect, test, type Page } from "@playwright/test";
import { chunk, DESKTOP, eachStep, expectChrome, waitForHydration } from "./helpers";
import { OK_ROUTES } from "./routes";

/** The not-found screen of spec §2: 404, the apology and a link home. */
async function expectNotFoundScreen(page: Page) {
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1, name: "404", exact: true })).toBeVisible();
  await expect(main.getByText("Oops! Page not found", { exact: true })).toBeVisible();
  const home = main.getByRole("link", { name: "Return to Home", exact: true });
  await expect(home).toBeVisible();
  await expect(home).toHaveAttribute("href", "/");
}

test.describe("routes answer 200 with the shared chrome", () => {
  // A few tests, each walking its share of the routes on one page, keep the run short.
  for (const [i, routes] of chunk(OK_ROUTES, 4).entries()) {
    test(`routes ${i + 1}: ${routes.join(" ")}`, async ({ page }) => {
      test.setTimeout(30_000 + routes.length * 5_000);
      await eachStep(
        routes,
        (route) => route,
        async (route) => {
          const response = await page.goto(route);
          expect(response, `no response for ${route}`).not.toBeNull();
          expect(response?.status(), `status of ${route}`).toBe(200);
          await expectChrome(page);
          // The page has content of its own in main, not just the chrome.
          await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveCount(1);
          // No sideways scrolling at either width.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(
            overflow,
            `${route} is wider than the viewport by ${overflow}px`,
          ).toBeLessThanOrEqual(0);
        },
      );
    });
  }

  test("/search?q=harbor echoes the query", async ({ page }) => {
    await page.goto("/search?q=harbor");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("harbor");
    await expect(page.getByRole("main").getByRole("searchbox")).toHaveValue("harbor");
  });
});

test.describe("not found", () => {
  test("unknown addresses, /not-found and unknown articles and blog posts show 404 screens", async ({
    page,
  }) => {
    const screens: { path: string; endsOn: string; check: () => Promise<void> }[] = [
      { path: "/no-such-page", endsOn: "/no-such-page", check: () => expectNotFoundScreen(page) },
      { path: "/not-found", endsOn: "/not-found", check: () => expectNotFoundScreen(page) },
      {
        path: "/a/deeper/unknown/path",
        endsOn: "/a/deeper/unknown/path",
        check: () => expectNotFoundScreen(page),
      },
      // The article loader sends unknown ids to /not-found.
      {
        path: "/article/unknown-id",
        endsOn: "/not-found",
        check: () => expectNotFoundScreen(page),
      },
      {
        path: "/blog/unknown-slug",
        endsOn: "/blog/unknown-slug",
        check: async () => {
          const main = page.getByRole("main");
          await expect(
            main.getByText("Error loading blog: Blog not found", { exact: true }),
          ).toBeVisible();
          const back = main.getByRole("link", { name: "Back to Blog", exact: true });
          await expect(back).toBeVisible();
          await expect(back).toHaveAttribute("href", "/blog");
        },
      },
    ];
    await eachStep(
      screens,
      (s) => s.path,
      async ({ path, endsOn, check }) => {
        const response = await page.goto(path);
        expect(response?.status(), `status of ${path}`).toBe(404);
        expect(new URL(page.url()).pathname).toBe(endsOn);
        await expectChrome(page);
        await check();
      },
    );
  });

  test("an unknown route warns in the console with its path, and Return to Home goes home", async ({
    page,
  }) => {
    const warnings: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "warning") warnings.push(msg.text());
    });
    await page.goto("/no-such-page-for-console");
    await waitForHydration(page);
    await expect
      .poll(() => warnings.find((w) => w.includes("/no-such-page-for-console")), {
        message: `console warnings were: ${JSON.stringify(warnings)}`,
      })
      .toBeTruthy();
    await page.getByRole("main").getByRole("link", { name: "Return to Home", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Latest News" })).toBeVisible();
  });

  test("/article/unknown-id answers with a redirect to /not-found", async ({
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "HTTP only: the width does not matter");
    const response = await request.get("/article/unknown-id", { maxRedirects: 0 });
    expect(response.status()).toBeGreaterThanOrEqual(300);
    expect(response.status()).toBeLessThan(400);
    expect(new URL(response.headers()["location"] ?? "", "http://x").pathname).toBe("/not-found");
  });

  test("unknown addresses answer 404 to plain HTTP clients too", async ({ request }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "HTTP only: the width does not matter");
    const expected: Record<string, string> = {
      "/no-such-page": "Oops! Page not found",
      "/not-found": "Oops! Page not found",
      "/a/b/c": "Oops! Page not found",
      "/blog/unknown-slug": "Error loading blog: Blog not found",
    };
    for (const [path, text] of Object.entries(expected)) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      // React separates adjacent text parts with empty comments in server HTML.
      const html = (await response.text()).replaceAll("<!-- -->", "");
      expect(html, path).toContain(text);
    }
  });
});

test.describe("legacy addresses", () => {
  test("/entertainment answers 301 to /arts-culture", async ({ request }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "HTTP only: the width does not matter");
    const response = await request.get("/entertainment", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/arts-culture");
  });

  test("/entertainment keeps the query string on redirect", async ({ request }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "HTTP only: the width does not matter");
    const response = await request.get("/entertainment?page=2", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/arts-culture?page=2");
  });

  test("a browser following /entertainment ends on Arts & Culture", async ({ page }) => {
    const response = await page.goto("/entertainment");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/arts-culture$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Arts & Culture");
  });
});

test.describe("links", () => {
  test("every same-site link on the home page and a category page leads to a page", async ({
    page,
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name !== DESKTOP, "the links are the same at both widths");
    const hrefs = new Set<string>();
    for (const route of ["/", "/local-news"]) {
      await page.goto(route);
      const found = await page
        .locator("a[href]")
        .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).href));
      for (const href of found) {
        const url = new URL(href);
        if (url.origin === new URL(page.url()).origin && !url.hash)
          hrefs.add(url.pathname + url.search);
      }
    }
    expect(hrefs.size).toBeGreaterThan(10);
    const broken: string[] = [];
    for (const href of hrefs) {
      const response = await request.get(href);
      if (response.status() !== 200) broken.push(`${href} -> ${response.status()}`);
    }
    expect(broken, `links that do not lead to a page:\n${broken.join("\n")}`).toEqual([]);
  });
});
