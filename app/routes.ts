import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { CATEGORY_PAGES } from "../shared/categories";
import { categoryFeedPath } from "../shared/sitemap";

// One line per route of the spec's route table; category pages come from the category registry.
export default [
  index("routes/home.tsx"),
  ...CATEGORY_PAGES.map((c) =>
    route(
      c.path.slice(1),
      // Community has a layout of its own (hero, poll); every other category shares one module.
      c.key === "community" ? "routes/community.tsx" : "routes/category.tsx",
      { id: `category/${c.key}` },
    ),
  ),
  ...CATEGORY_PAGES.flatMap((c) =>
    c.legacyPaths.map((legacy) =>
      route(legacy.slice(1), "routes/legacy-redirect.tsx", { id: `redirect${legacy}` }),
    ),
  ),
  route("archives", "routes/archives.tsx"),
  route("events", "routes/events.tsx"),
  route("local-events", "routes/local-events.tsx"),
  route("contact-us", "routes/contact-us.tsx"),
  route("about-us", "routes/about-us.tsx"),
  route("privacy-policy", "routes/privacy-policy.tsx"),
  route("terms-of-service", "routes/terms-of-service.tsx"),
  route("privacy", "routes/privacy.tsx"),
  route("terms", "routes/terms.tsx"),
  route("article/:id", "routes/article.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/:slug", "routes/blog-post.tsx"),
  route("partners", "routes/partners.tsx"),
  route("faq", "routes/faq.tsx"),
  route("search", "routes/search.tsx"),
  route("newsletter", "routes/newsletter.tsx"),
  // For search engines, feed readers and phones.
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap-index.ts"),
  route("sitemaps/:file", "routes/sitemap-file.ts"),
  route("news-sitemap.xml", "routes/news-sitemap.ts"),
  route("manifest.webmanifest", "routes/manifest.ts"),
  route("rss.xml", "routes/rss.ts", { id: "rss" }),
  ...CATEGORY_PAGES.map((c) =>
    route(categoryFeedPath(c.path).slice(1), "routes/rss.ts", { id: `rss/${c.key}` }),
  ),
  route("not-found", "routes/not-found.tsx", { id: "not-found" }),
  route("*", "routes/not-found.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
