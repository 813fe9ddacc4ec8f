import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PurgeError } from "./purge";
import { startVarnish } from "./test-varnish";
import { varnishPurger } from "./varnish";

/**
 * config/varnish/default.vcl in a real varnishd, in front of a small site whose pages say their keys
 * as ours do: a page is kept, a purge by key makes the next request fetch it again, and pages under
 * other keys stay kept. Without varnishd the test fails and says how to get it
 * (`node scripts/ensure-varnish.js`).
 */

/** Each page's keys, as the site's routes declare them. */
const PAGES: Record<string, string> = {
  "/": "site home article-harbor",
  "/sports": "site category-sports article-match",
  "/article/harbor": "site article-harbor",
};

let site: http.Server;
let varnish: string;
let stopVarnish: (() => Promise<void>) | undefined;
const renders = new Map<string, number>();

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const page = req.url ?? "/";
    const count = (renders.get(page) ?? 0) + 1;
    renders.set(page, count);
    const keys = PAGES[page];
    if (!keys) {
      res.writeHead(404, { "Cache-Control": "no-store" }).end("not found");
      return;
    }
    res
      .writeHead(200, {
        "Content-Type": "text/plain",
        "Cache-Control": "public, no-cache",
        "CDN-Cache-Control": "public, max-age=60, stale-while-revalidate=600",
        "Surrogate-Control": "max-age=60, stale-while-revalidate=600",
        "Surrogate-Key": keys,
        "Cache-Tag": keys.replaceAll(" ", ","),
      })
      .end(`${page} render ${count}`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const sitePort = (site.address() as AddressInfo).port;

  ({ url: varnish, stop: stopVarnish } = await startVarnish(sitePort));
}, 30_000);

afterAll(async () => {
  await stopVarnish?.();
  await new Promise((resolve) => site?.close(resolve));
});

async function get(page: string) {
  const response = await fetch(`${varnish}${page}`);
  return { text: await response.text(), headers: response.headers, status: response.status };
}

describe("Varnish with config/varnish/default.vcl", () => {
  it("keeps pages by Surrogate-Control, and purges by key exactly the pages that name it", async () => {
    expect((await get("/")).text).toBe("/ render 1");
    expect((await get("/sports")).text).toBe("/sports render 1");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 1");
    // Kept: the site is not asked again, although browsers were told `no-cache`.
    const again = await get("/");
    expect(again.text).toBe("/ render 1");
    expect(Number(again.headers.get("age"))).toBeGreaterThanOrEqual(0);
    // What only the cache reads is not passed on; the browser's Cache-Control is.
    expect(again.headers.get("surrogate-key")).toBeNull();
    expect(again.headers.get("surrogate-control")).toBeNull();
    expect(again.headers.get("cache-tag")).toBeNull();
    expect(again.headers.get("cache-control")).toBe("public, no-cache");

    // The story on the home page changed: its page and the home page go, the sports page stays.
    await varnishPurger([varnish]).send(["article-harbor"]);
    expect((await get("/")).text).toBe("/ render 2");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 2");
    expect((await get("/sports")).text).toBe("/sports render 1");

    // A key is a whole word: `category-sport` names no page.
    await varnishPurger([varnish]).send(["category-sport", "article-harb"]);
    expect((await get("/sports")).text).toBe("/sports render 1");
    expect((await get("/")).text).toBe("/ render 2");

    // Several keys in one ban.
    await varnishPurger([varnish]).send(["category-sports", "home"]);
    expect((await get("/sports")).text).toBe("/sports render 2");
    expect((await get("/")).text).toBe("/ render 3");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 2");
  });

  it("refuses a ban without keys, or with anything but key words, and bans nothing", async () => {
    await get("/sports");
    const before = renders.get("/sports");
    for (const keys of ["", ".*", "home|site", "sports)"]) {
      const response = await fetch(`${varnish}/`, {
        method: "BAN",
        headers: keys ? { "X-Purge-Keys": keys } : {},
      });
      expect(response.status).toBe(400);
    }
    await get("/sports");
    expect(renders.get("/sports")).toBe(before);
    // The purger reports a refused ban as not worth retrying.
    await expect(varnishPurger([varnish]).send(["Not A Key"])).rejects.toMatchObject({
      retryable: false,
    });
    await expect(varnishPurger([varnish]).send(["Not A Key"])).rejects.toBeInstanceOf(PurgeError);
  });
});
