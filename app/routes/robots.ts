import type { Route } from "./+types/robots";

/** Everything may be crawled but search results; the sitemaps say what there is. */
export function loader({ context }: Route.LoaderArgs) {
  const site = context.config.siteUrl;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /search",
    "",
    `Sitemap: ${site}/sitemap.xml`,
    `Sitemap: ${site}/news-sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
