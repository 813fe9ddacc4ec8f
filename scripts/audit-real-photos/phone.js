// The real-photos audit's phone: a page's image bytes at 375 px wide, scrolled to the end.
import { kb } from "./format.js";

/** A common phone: 375 CSS pixels wide at twice as many device pixels. */
export const PHONE = { width: 375, height: 812, deviceScaleFactor: 2 };

/**
 * The page in a phone's browser: image bytes transferred once loaded (the first screen), then
 * after scrolling to the bottom and waiting for the network to settle, and every image request
 * to another origin (blocked ones included: the page asked for them).
 */
export async function phoneImageBytes(browser, url) {
  const context = await browser.newContext({
    viewport: { width: PHONE.width, height: PHONE.height },
    deviceScaleFactor: PHONE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.type === "Image" && !event.request.url.startsWith("data:")) {
        requests.set(event.requestId, { url: event.request.url, bytes: 0 });
      }
    });
    cdp.on("Network.loadingFinished", (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });
    const sum = () => [...requests.values()].reduce((total, r) => total + r.bytes, 0);
    await page.goto(url, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    const firstScreen = sum();
    // Down a screen at a time, as a reader scrolls, so that each lazy picture comes near the viewport.
    for (let y = 0; ; y += PHONE.height * 0.8) {
      const height = await page.evaluate(() => globalThis.document.documentElement.scrollHeight);
      if (y > height) break;
      await page.evaluate((top) => globalThis.scrollTo(0, top), y);
      await page.waitForTimeout(150);
    }
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    const origin = new URL(url).origin;
    return {
      firstScreen,
      scrolled: sum(),
      requests: requests.size,
      list: [...requests.values()],
      otherOrigins: [...requests.values()]
        .filter((r) => new URL(r.url).origin !== origin)
        .map((r) => r.url),
    };
  } finally {
    await context.close();
  }
}

/** A phone run's image requests, largest first: address (hashes shortened) and bytes. */
export function phoneRequests(run, origin) {
  return [...run.list]
    .sort((a, b) => b.bytes - a.bytes)
    .map((r) => {
      const address = r.url.startsWith(origin) ? r.url.slice(origin.length) : r.url;
      return `\`${address.replace(/[0-9a-f]{64}/, (hash) => `${hash.slice(0, 8)}…`)}\` ${kb(r.bytes)}`;
    })
    .join(", ");
}
