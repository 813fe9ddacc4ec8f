import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// One line per route of the spec's route table.
export default [
  index("routes/home.tsx"),
  // Community has a layout of its own (hero, poll); every other category page shares one module,
  // which answers the keys of the category registry (shared/categories.ts).
  route("community", "routes/community.tsx"),
  route(":category", "routes/category.tsx"),
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
  route("corrections", "routes/corrections.tsx"),
  route("corrections/rss.xml", "routes/corrections-rss.ts"),
  // The links in newsletter mail: each page asks for a button press, so a mail scanner's GET does nothing.
  route("newsletter/confirm", "routes/newsletter-confirm.tsx"),
  route("newsletter/unsubscribe", "routes/newsletter-unsubscribe.tsx"),
  // The staff's newsroom (decision 023): every page checks the session itself.
  route("newsroom/sign-in", "routes/newsroom/sign-in.tsx"),
  route("newsroom/sign-out", "routes/newsroom/sign-out.tsx"),
  layout("routes/newsroom/layout.tsx", { id: "newsroom" }, [
    route("newsroom", "routes/newsroom/home.tsx"),
    route("newsroom/stories", "routes/newsroom/stories.tsx"),
    route("newsroom/stories/:id", "routes/newsroom/story.tsx"),
    route("newsroom/rules", "routes/newsroom/rules.tsx"),
    route("newsroom/audit", "routes/newsroom/audit.tsx"),
    route("newsroom/feeds", "routes/newsroom/feeds.tsx"),
    route("newsroom/newsletter", "routes/newsroom/newsletter.tsx"),
  ]),
  // Admins' downloads: resource routes, each checking the session like the pages.
  route("newsroom/newsletter/subscribers.csv", "routes/newsroom/subscribers-csv.ts"),
  route("newsroom/newsletter/preview", "routes/newsroom/newsletter-preview.ts"),
  // For search engines, feed readers and phones.
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap-index.ts"),
  route("sitemaps/:file", "routes/sitemap-file.ts"),
  route("news-sitemap.xml", "routes/news-sitemap.ts"),
  route("manifest.webmanifest", "routes/manifest.ts"),
  route("rss.xml", "routes/rss.ts", { id: "rss" }),
  route(":category/rss.xml", "routes/rss.ts", { id: "category-rss" }),
  route("not-found", "routes/not-found.tsx", { id: "not-found" }),
  route("*", "routes/not-found.tsx", { id: "catch-all" }),
] satisfies RouteConfig;
