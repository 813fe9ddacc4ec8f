import { cacheKeyHeaders, SITE_KEY } from "../../shared/cache-keys";
import type { Route } from "./+types/manifest";

/** The web app manifest: the name, colours and icons a phone uses when the site is added to it. */
export function loader({ context }: Route.LoaderArgs) {
  const { site } = context.content;
  const manifest = {
    name: site.name,
    short_name: "Local Ledger",
    description: site.tagline,
    lang: "en-US",
    start_url: "/",
    scope: "/",
    display: "browser",
    background_color: "#ffffff",
    theme_color: "#083d5c",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
      ...cacheKeyHeaders([SITE_KEY]),
    },
  });
}
