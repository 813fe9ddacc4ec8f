import { describe, expect, it } from "vitest";
import { CATEGORY_CHIPS, FOOTER_LINKS, HEADER_LINKS, MOBILE_MENU_LINKS } from "./nav";

describe("navigation built from the registry", () => {
  it("desktop header: the spec's links in order, arts & culture only extra-wide", () => {
    expect(HEADER_LINKS.map((l) => [l.to, l.extraWide])).toEqual([
      ["/local-news", false],
      ["/national-news", false],
      ["/world-news", false],
      ["/politics", false],
      ["/business", false],
      ["/technology", false],
      ["/sports", false],
      ["/arts-culture", true],
      ["/opinion", false],
    ]);
  });

  it("mobile menu: the spec's 21 links in order", () => {
    expect(MOBILE_MENU_LINKS.map((l) => l.to)).toEqual([
      "/",
      "/local-news",
      "/national-news",
      "/world-news",
      "/politics",
      "/business",
      "/technology",
      "/sports",
      "/arts-culture",
      "/opinion",
      "/automotive",
      "/real-estate",
      "/health",
      "/food",
      "/lifestyle",
      "/archives",
      "/events",
      "/blog",
      "/partners",
      "/faq",
      "/contact-us",
    ]);
  });

  it("footer: the spec's internal links in order", () => {
    expect(FOOTER_LINKS.map((l) => l.to)).toEqual([
      "/",
      "/local-news",
      "/community",
      "/business",
      "/contact-us",
      "/about-us",
      "/privacy-policy",
      "/terms-of-service",
    ]);
  });

  it("home chips: category pages, community and entertainment", () => {
    const chips = CATEGORY_CHIPS.map((c) => c.to);
    expect(chips).toContain("/community");
    expect(chips).toContain("/entertainment");
    expect(chips).toContain("/local-news");
    expect(CATEGORY_CHIPS.find((c) => c.to === "/entertainment")?.label).toBe("Entertainment");
  });
});
