import { cacheKeyHeaders, SITE_KEY } from "../../shared/cache-keys";
import type { Route } from "./+types/robots";

/** Everything may be crawled but search results and the staff's newsroom; the sitemaps say what there is. */
export function loader({ context }: Route.LoaderArgs) {
  const site = context.config.siteUrl;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /search",
    "Disallow: /newsroom",
    "",
    `Sitemap: ${site}/sitemap.xml`,
    `Sitemap: ${site}/news-sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      ...cacheKeyHeaders([SITE_KEY]),
    },
  });
}
