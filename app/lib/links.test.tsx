import { renderToString } from "react-dom/server";
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  type LinkProps,
  type NavLinkProps,
} from "react-router";
import { describe, expect, it } from "vitest";
import { ServerLink, ServerNavLink } from "./links";
import { renderInRouter } from "./test-render";

const linkCases: LinkProps[] = [
  { to: "/" },
  { to: "/local-news", className: "chip", children: "Local News" },
  { to: "/article/2026/11/council-votes-on-budget-a1b2c3", children: <span>Read</span> },
  { to: "/blog?page=2", rel: "prev", "aria-label": "Previous page" },
  { to: "/search?q=bay bridge&page=3", children: "Next" },
  { to: "/archives#2026-11", title: "November" },
  { to: "/local-news/", id: "x", style: { color: "red" } },
  { to: "/sitemap.xml", target: "_blank", rel: "noopener" },
  { to: "/events", onClick: () => {}, replace: true, state: { from: "home" } },
  { to: "/faq", preventScrollReset: true, tabIndex: -1 },
  // Not plain: each left to React Router, whose HTML the server link must still match.
  { to: "//example.com/x" },
  { to: "https://example.com/feed" },
  { to: "/./about-us" },
  { to: "/a/../b" },
  { to: "/a//b" },
  { to: "/café" },
  { to: "/blog?" },
  { to: "/blog?#top" },
  { to: "about-us" },
  { to: "?page=2" },
  { to: { pathname: "/blog", search: "?page=2" } },
  { to: "/blog", reloadDocument: true },
  { to: "/blog", prefetch: "intent" },
  { to: "/blog", discover: "none" },
  { to: "/blog", relative: "path" },
];

const navLinkCases: NavLinkProps[] = [
  { to: "/", children: "Home" },
  { to: "/", end: true, children: "Home" },
  { to: "/local-news", className: "block px-2", children: "Local News" },
  { to: "/local-news", end: true, className: "block", children: "Local News" },
  { to: "/local-news/", children: "Local News" },
  { to: "/Local-News", children: "Local News" },
  { to: "/local", children: "Local" },
  { to: "/blog?page=2", children: "Blog" },
  {
    to: "/local-news",
    className: ({ isActive }) => (isActive ? "on" : "off"),
    style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }),
    children: ({ isActive }) => (isActive ? "Here" : "There"),
  },
  { to: "/local-news", "aria-current": "location", children: "Local News" },
  { to: "/local-news", onClick: () => {}, children: "Local News" },
  { to: "/local-news", caseSensitive: true, children: "Local News" },
  { to: "local-news", children: "Relative" },
];

const locations = [
  "/",
  "/local-news",
  "/local-news/",
  "/local-news/park",
  "/LOCAL-NEWS",
  "/locale",
];

describe("ServerLink", () => {
  it.each(linkCases.map((props) => [JSON.stringify(props.to), props] as const))(
    "renders %s exactly as React Router's Link does",
    async (_, props) => {
      const ours = await renderInRouter("/local-news", <ServerLink {...props} />);
      const theirs = await renderInRouter("/local-news", <RouterLink {...props} />);
      expect(ours).toBe(theirs);
      expect(ours).toContain("<a ");
    },
  );

  it("renders a plain path without React Router's machinery (no router needed)", () => {
    expect(renderToString(<ServerLink to="/local-news">Local News</ServerLink>)).toBe(
      '<a href="/local-news" data-discover="true">Local News</a>',
    );
    // A path React Router must resolve still goes to it, and it needs its router.
    expect(() => renderToString(<ServerLink to="/a/../b">B</ServerLink>)).toThrow();
  });
});

describe("ServerNavLink", () => {
  for (const location of locations) {
    it.each(navLinkCases.map((props) => [String(props.to), props] as const))(
      `at ${location}, renders %s exactly as React Router's NavLink does`,
      async (_, props) => {
        const ours = await renderInRouter(location, <ServerNavLink {...props} />);
        const theirs = await renderInRouter(location, <RouterNavLink {...props} />);
        expect(ours).toBe(theirs);
      },
    );
  }

  it("marks the current page", async () => {
    const html = await renderInRouter(
      "/local-news/park",
      <ServerNavLink to="/local-news">News</ServerNavLink>,
    );
    expect(html).toBe(
      '<a aria-current="page" class="active" href="/local-news" data-discover="true">News</a>',
    );
  });
});
