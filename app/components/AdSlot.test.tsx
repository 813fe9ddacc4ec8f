import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { loadContent } from "../../server/content/load";
import { AD_PLAN, type PageKind } from "../lib/ad-plan";
import { AD_SLOT_NAMES } from "../../shared/ads";
import type { PublicEmbeds } from "../lib/embeds";
import { AdSlot, houseAdFor } from "./AdSlot";

const { houseAds, sponsors } = loadContent("content");

const NO_EMBEDS: PublicEmbeds = {
  adScriptUrl: null,
  featuredVideoUrl: null,
  imageFeedUrl: null,
  holidayCalendarUrl: null,
  feedWallUrl: null,
  contactFormUrl: null,
};

/** `element` rendered at `url` under a root route whose data is what the root loader sends. */
async function render(
  url: string,
  adScriptUrl: string | null,
  element = <AdSlot slot="pageBanner" size="banner" kind="page" />,
): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "root",
      path: "/",
      loader: () => ({ embeds: { ...NO_EMBEDS, adScriptUrl }, ads: { houseAds, sponsors } }),
      children: [{ path: "*", element }],
    },
  ]);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`the route answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("AdSlot", () => {
  it("shows the slot's house ad, labelled, in the reserved height, with no provider", async () => {
    const html = await render("/politics", null);
    expect(html).toContain('data-ad-slot="6079445"');
    expect(html).toContain('data-house-ad="pageBanner"');
    expect(html).toContain("min-height:200px");
    expect(html).toContain(">Advertisement</span>");
    expect(html).toContain(houseAds.pageBanner.headline);
    expect(html).toContain(`href="${houseAds.pageBanner.href}"`);
    expect(html).not.toContain("ad-slot-empty");
  });

  it("with a provider, keeps the empty reserved box for its script, and no house ad", async () => {
    const html = await render("/politics", "https://ads.example.net/serve.js?zone={slot}");
    expect(html).toContain('data-ad-slot="6079445"');
    expect(html).toContain("min-height:200px");
    expect(html).toContain("ad-slot-empty");
    expect(html).not.toContain("data-house-ad");
    expect(html).not.toContain(houseAds.pageBanner.headline);
    expect(html).not.toContain(">Advertisement<");
  });
});

describe("houseAdFor", () => {
  it("gives a slot its own house ad", () => {
    expect(houseAdFor(houseAds, "grid", "gridWide", 0, "/politics")).toBe("gridWide");
    expect(houseAdFor(houseAds, "localNews", "listUnit", 0, "/local-news")).toBe("listUnit");
  });
  it("never promotes the page it is on", () => {
    const name = houseAdFor(houseAds, "page", "pageBanner", 0, houseAds.pageBanner.href);
    expect(name).not.toBe("pageBanner");
    expect(houseAds[name].href).not.toBe(houseAds.pageBanner.href);
  });
});

/** The house ads a page's slots show, as the server renders them: `[data-house-ad]` in order. */
const shownAds = (html: string) => [...html.matchAll(/data-house-ad="(\w+)"/g)].map((m) => m[1]);

describe("house ads of one page", () => {
  it("differ from slot to slot while there are enough: a list's repeated unit too", async () => {
    // Local News with every story: a unit after the 3rd, 6th, 9th and 12th.
    const units = (
      <>
        {[0, 1, 2, 3].map((occurrence) => (
          <AdSlot
            key={occurrence}
            slot="listUnit"
            size="box"
            kind="localNews"
            occurrence={occurrence}
          />
        ))}
      </>
    );
    const html = await render("/local-news", null, units);
    const ads = shownAds(html);
    expect(ads).toHaveLength(4);
    expect(new Set(ads).size).toBe(4);
    expect(ads[0]).toBe("listUnit");
    // The same page renders the same ads, so a cached copy matches a fresh one.
    expect(await render("/local-news", null, units)).toBe(html);
  });

  // Every kind of page at every address a house ad leads to and a few more, its repeated unit
  // shown four times: as many different ads as the page can show, none promoting the page.
  const paths = [...new Set(AD_SLOT_NAMES.map((n) => houseAds[n].href))];
  paths.push("/", "/local-news", "/community", "/politics");
  const kinds = Object.keys(AD_PLAN) as PageKind[];
  it.each(kinds.flatMap((kind) => paths.map((path) => [kind, path] as const)))(
    "%s page at %s",
    (kind, path) => {
      const plan = AD_PLAN[kind].slots;
      const page = plan.flatMap((p) =>
        p.every ? [0, 1, 2, 3].map((n) => [p.slot, n] as const) : [[p.slot, 0] as const],
      );
      const ads = page.map(([slot, n]) => houseAdFor(houseAds, kind, slot, n, path));
      const elsewhere = AD_SLOT_NAMES.filter((n) => houseAds[n].href !== path);
      expect(new Set(ads).size).toBe(Math.min(ads.length, elsewhere.length));
      for (const name of ads) expect(houseAds[name].href).not.toBe(path);
    },
  );
});
