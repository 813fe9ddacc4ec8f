import { renderToString } from "react-dom/server";
import { Form } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { loadContent } from "../../server/content/load";
import { prerenderWith } from "../lib/prerendered";
import { renderInRouter } from "../lib/test-render";
import { FOOTER_LINKS, HEADER_LINKS, MOBILE_MENU_LINKS } from "../lib/nav";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { SEARCH_FORM, SearchForm } from "./SearchForm";

const { site } = loadContent("content");
const page = (
  <>
    <Header siteName={site.name} />
    <main>Page</main>
    <Footer site={site} />
  </>
);

/** Every page the chrome links to, pages below them, and pages it does not link to. */
const locations = [
  ...new Set([...HEADER_LINKS, ...MOBILE_MENU_LINKS, ...FOOTER_LINKS].map((link) => link.to)),
  "/local-news/",
  "/local-news/park",
  "/LOCAL-NEWS",
  "/locale",
  "/article/harbor-budget-passes-32d156f74d2cd5db",
  "/blog/a-sample-post",
  "/search",
  "/no-such-page",
];

describe("the header and footer rendered once per variant", () => {
  afterAll(() => prerenderWith(null));

  it("are the same HTML on every page as when rendered with the page, first time and from memory", async () => {
    prerenderWith(null);
    const full = await Promise.all(locations.map((location) => renderInRouter(location, page)));
    prerenderWith(renderToString);
    // Twice through, in order: each page after others whose variants are kept already.
    for (const round of [1, 2]) {
      for (const [index, location] of locations.entries()) {
        expect(await renderInRouter(location, page), `${location}, round ${round}`).toBe(
          full[index],
        );
      }
    }
    expect(full[0]).toContain("<header");
    expect(full[0]).toContain("© ");
  });

  it("renders each variant once: pages of one section share it, and the current link moves with the page", async () => {
    let renders = 0;
    prerenderWith((node) => {
      renders++;
      return renderToString(node);
    });
    const park = await renderInRouter("/local-news/park", page);
    expect(renders).toBe(2); // header and footer
    const pier = await renderInRouter("/local-news/pier", page);
    expect(renders).toBe(2);
    expect(pier).toBe(park.replace("/local-news/park", "/local-news/pier"));
    // On the section's own page its mobile menu link is current too: another variant.
    const section = await renderInRouter("/local-news", page);
    expect(renders).toBe(3);
    expect(section).not.toBe(park);
    expect(section.match(/aria-current="page"/g)).toHaveLength(2);
    expect(park.match(/aria-current="page"/g)).toHaveLength(1);
  });
});

describe("SearchForm on the server", () => {
  it("opens with the form React Router's Form renders", async () => {
    const ours = renderToString(<SearchForm id="q" />);
    const theirs = await renderInRouter("/", <Form {...SEARCH_FORM} />);
    const openingTag = (html: string) => html.slice(0, html.indexOf(">") + 1);
    expect(openingTag(ours)).toBe(openingTag(theirs));
    expect(openingTag(ours)).toBe(
      '<form role="search" class="flex gap-2" data-discover="true" action="/search" method="get">',
    );
  });
});
