import { expect, test, type Page } from "@playwright/test";
import { E2E_STAFF } from "../scripts/e2e-staff.js";
import { expectNoSeriousViolations } from "./axe";

/** The newsroom's e2e site: a copy of the sample site of its own, for tests that change it. */
export const SITE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 2}`;

export type Member = (typeof E2E_STAFF)[keyof typeof E2E_STAFF];

export async function signIn(page: Page, member: Member = E2E_STAFF.editor) {
  await page.goto("/newsroom/sign-in");
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Checking an argon2id hash takes a moment on a busy machine.
  await expect(page).toHaveURL(/\/newsroom$/, { timeout: 20_000 });
  await expect(
    page.getByRole("heading", { level: 1, name: "Newsroom", exact: true }),
  ).toBeVisible();
}

/**
 * Looks at a page: no serious accessibility fault and nothing wider than the window (both measured
 * in the page, so not where JavaScript is off), and a screenshot to look at.
 */
export async function review(page: Page, label: string, inPage = true) {
  const width = page.viewportSize()?.width ?? 0;
  if (inPage) {
    await expectNoSeriousViolations(page, label);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide, `${label} fits ${width} px`).toBeLessThanOrEqual(width);
  }
  await page.screenshot({ path: test.info().outputPath(`${label}-${width}.png`), fullPage: true });
}
