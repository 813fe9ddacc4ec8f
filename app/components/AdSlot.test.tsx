import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { loadContent } from "../../server/content/load";
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

/** The slot rendered at `url` under a root route whose data is what the root loader sends. */
async function render(url: string, adScriptUrl: string | null): Promise<string> {
  const handler = createStaticHandler([
    {
      id: "root",
      path: "/",
      loader: () => ({ embeds: { ...NO_EMBEDS, adScriptUrl }, ads: { houseAds, sponsors } }),
      children: [{ path: "*", element: <AdSlot slot="pageBanner" size="banner" /> }],
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
    expect(html).not.toContain("border-dashed");
  });

  it("with a provider, keeps the empty reserved box for its script, and no house ad", async () => {
    const html = await render("/politics", "https://ads.example.net/serve.js?zone={slot}");
    expect(html).toContain('data-ad-slot="6079445"');
    expect(html).toContain("min-height:200px");
    expect(html).not.toContain("data-house-ad");
    expect(html).not.toContain(houseAds.pageBanner.headline);
    expect(html).not.toContain(">Advertisement<");
  });
});

describe("houseAdFor", () => {
  it("gives a slot its own house ad", () => {
    expect(houseAdFor(houseAds, "gridWide", "/politics")).toBe("gridWide");
  });
  it("never promotes the page it is on", () => {
    const name = houseAdFor(houseAds, "pageBanner", houseAds.pageBanner.href);
    expect(name).not.toBe("pageBanner");
    expect(houseAds[name].href).not.toBe(houseAds.pageBanner.href);
  });
});
