import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { DESKTOP } from "./helpers";
import { review, signIn, SITE } from "./newsroom-site";

/**
 * A picture dragged from the desktop (or a phone's files) onto the editor's Picture box is
 * uploaded with the next save, as one picked with the file input is (app/components/PostPictureBox.tsx).
 */

test.use({ baseURL: SITE });

/** A photo made now, different for each `seed` (the library keeps one entry per picture). */
async function photo(seed: string): Promise<Buffer> {
  const hue = [...seed].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
    <rect width="1200" height="800" fill="hsl(${hue},50%,45%)"/>
    <text x="60" y="120" font-size="64" fill="#fff" font-family="sans-serif">${seed}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Drops `bytes` as a JPEG file onto `selector`, as a browser does at the end of a drag. */
async function dropFile(page: Page, selector: string, name: string, bytes: Buffer) {
  const transfer = await page.evaluateHandle(
    ({ base64, name }) => {
      const data = new DataTransfer();
      const binary = atob(base64);
      const array = Uint8Array.from(binary, (c) => c.charCodeAt(0));
      data.items.add(new File([array], name, { type: "image/jpeg" }));
      return data;
    },
    { base64: bytes.toString("base64"), name },
  );
  await page.dispatchEvent(selector, "dragover", { dataTransfer: transfer });
  await page.dispatchEvent(selector, "drop", { dataTransfer: transfer });
}

test("a picture dropped on the Picture box is uploaded with Save", async ({ page }, testInfo) => {
  const tag = `${testInfo.project.name === DESKTOP ? "desk" : "phone"} ${Date.now().toString(36)}`;
  await signIn(page);
  await page.goto("/newsroom/posts");
  await page.getByRole("button", { name: "New story" }).click();
  await expect(page).toHaveURL(/\/newsroom\/posts\/\d+\?done=created$/);
  // Hydrated: the rich editor has replaced the Markdown text area.
  await expect(page.getByRole("textbox", { name: "Body", exact: true })).toHaveAttribute(
    "contenteditable",
    "true",
    { timeout: 20_000 },
  );
  const alt = `A dropped picture (${tag})`;
  await page.getByLabel(/^Alt text/).fill(alt);

  await dropFile(page, "section#picture", "dropped.jpg", await photo(`drop ${tag}`));
  const input = page.getByLabel("Or upload one from this device");
  await expect
    .poll(() => input.evaluate((i: HTMLInputElement) => i.files?.[0]?.name ?? ""))
    .toBe("dropped.jpg");

  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Saved. Nothing changes on the site until you publish." }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: `Set the focal point of ${alt}` })).toBeVisible();
  await page.reload();
  expect(Number(await page.getByLabel("From the library").inputValue())).toBeGreaterThan(0);
  await review(page, "editor-dropped-picture");
});
