import { expect, test, type Page } from "@playwright/test";
import { chunk, eachStep, waitForHydration } from "./helpers";
import { NOT_FOUND_ROUTES, OK_ROUTES } from "./routes";

/**
 * The Content-Security-Policy in a real browser: every page loads, hydrates and navigates without
 * a single violation, so our own scripts are all allowed (by nonce or, from the cache, by hash) and
 * nothing else would be.
 */
declare global {
  interface Window {
    cspViolations?: string[];
  }
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      window.cspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
});

const violations = (page: Page) => page.evaluate(() => window.cspViolations ?? []);

test.describe("no Content-Security-Policy violations", () => {
  for (const [i, routes] of chunk([...OK_ROUTES, ...NOT_FOUND_ROUTES], 4).entries()) {
    test(`pages ${i + 1}: ${routes.join(" ")}`, async ({ page }) => {
      test.setTimeout(30_000 + routes.length * 8_000);
      await eachStep(
        routes,
        (route) => route,
        async (route) => {
          const response = await page.goto(route);
          const policy = response?.headers()["content-security-policy"] ?? "";
          const scripts = /script-src ([^;]*)/.exec(policy)?.[1] ?? "";
          // Rendered for this reader alone, a page's inline scripts are allowed by its render's
          // nonce; kept in the cache for many, by their hashes.
          const kept = response?.headers()["x-cache"] !== "BYPASS";
          expect(scripts).toMatch(kept ? /^'self' 'sha256-/ : /^'self' 'nonce-[\w-]{22}'/);
          expect(scripts).not.toContain("'unsafe-inline'");
          expect(policy).toContain("object-src 'none'");
          expect(policy).toContain("frame-ancestors 'self'");
          await waitForHydration(page);
          expect(await violations(page), route).toEqual([]);
        },
      );
    });
  }

  test("while navigating in the page, playing the video and using the menus", async ({ page }) => {
    // The player's host answers from here: the tests never reach the network.
    await page.route(/youtube/, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<p>player</p>" }),
    );
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("link", { name: /Play video/ }).click();
    await expect(page.locator('iframe[src*="youtube-nocookie.com"]')).toHaveCount(1);
    await page.locator('a[href^="/article/"]').first().click();
    await expect(page).toHaveURL(/\/article\//);
    await page.goto("/faq");
    await waitForHydration(page);
    await page.locator("summary").first().click();
    expect(await violations(page)).toEqual([]);
  });

  test("a page served from the cache carries the policy for its own scripts", async ({
    request,
  }) => {
    const first = await request.get("/partners");
    const again = await request.get("/partners");
    expect(again.headers()["x-cache"]).toBe("HIT");
    const policy = again.headers()["content-security-policy"];
    expect(policy).toBe(first.headers()["content-security-policy"]);
    // The scripts' hashes: the nonce the stored page's scripts carry is never presented as one.
    expect(policy).toMatch(/script-src 'self' 'sha256-/);
    expect(policy).not.toContain("'nonce-");
  });
});

test("every answer carries the security headers", async ({ request }) => {
  for (const route of ["/", "/robots.txt", "/healthz", "/no-such-page"]) {
    const headers = (await request.get(route)).headers();
    expect(headers["x-content-type-options"], route).toBe("nosniff");
    expect(headers["referrer-policy"], route).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], route).toContain("camera=()");
    expect(headers["content-security-policy"], route).toContain("frame-ancestors 'self'");
  }
});

test("the browser finds nothing to warn about in the headers of a page", async ({ page }) => {
  // Chromium warns in the console of every page about a Permissions-Policy feature it does not know.
  const messages: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" || message.type() === "error") messages.push(message.text());
  });
  await page.goto("/faq");
  await page.waitForLoadState("networkidle");
  expect(messages).toEqual([]);
});

test("a form sent from another site is refused, one from ours is taken", async ({ request }) => {
  const crossSite = await request.post("/newsletter", {
    form: { email: "csrf@example.com", returnTo: "/" },
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBe(403);
  expect(await crossSite.text()).toContain("only be sent from this site's own pages");
  const sameSite = await request.post("/newsletter", {
    form: { email: "csrf@example.com", returnTo: "/" },
    headers: { "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  expect(sameSite.status()).toBe(303);
});
