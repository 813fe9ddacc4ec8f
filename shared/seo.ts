import type { MetaDescriptor } from "react-router";
import { pageTitle } from "./title";

/** Shared by every page that has no picture of its own (1200 × 630, as social previews want). */
const DEFAULT_SHARE_IMAGE = {
  url: "/images/og-default.png",
  width: 1200,
  height: 630,
};

/** Query parameters that never make a page different (analytics tags and click ids). */
const TRACKING_PARAMETER = /^(utm_.*|fbclid|gclid|dclid|msclkid|mc_.*|_ga|ref)$/i;

export interface PageSeo {
  /** The page's own name; the document title is "{title} | {site name}". */
  title: string;
  description: string;
  /** Query parameters that make this page a page of its own (kept in its canonical URL). */
  keepParams?: readonly string[];
  image?: { url: string; width?: number; height?: number; alt?: string } | null;
  /** Open Graph type; "article" for a story or post. */
  type?: "website" | "article";
  article?: { publishedTime: string; modifiedTime?: string; section?: string; author?: string };
  /** Keeps the page out of search engines (legal texts, search results, filtered lists). */
  noindex?: boolean;
}

/**
 * The canonical URL of `location` on `siteUrl`: the path, and of the query only the parameters the
 * page keeps (so `?page=2` stays, `?utm_source=…` and unknown parameters go), in a stable order.
 */
function canonicalUrl(
  siteUrl: string,
  location: { pathname: string; search: string },
  keepParams: readonly string[] = [],
): string {
  const given = new URLSearchParams(location.search);
  const kept = new URLSearchParams();
  for (const name of keepParams) {
    const value = given.get(name);
    if (value && !TRACKING_PARAMETER.test(name) && !(name === "page" && value === "1")) {
      kept.set(name, value);
    }
  }
  const query = kept.toString();
  return `${siteUrl}${location.pathname}${query ? `?${query}` : ""}`;
}

/** An absolute URL for an image given as a site path or as an absolute http(s) URL. */
export function absoluteUrl(siteUrl: string, url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${siteUrl}${url.startsWith("/") ? "" : "/"}${url}`;
}

/**
 * Every page's head: title, description, canonical, Open Graph and Twitter card tags, and robots
 * when the page stays out of search engines.
 */
export function seoTags(
  siteUrl: string,
  site: { name: string; tagline: string },
  location: { pathname: string; search: string },
  seo: PageSeo,
): MetaDescriptor[] {
  const url = canonicalUrl(siteUrl, location, seo.keepParams);
  const title = pageTitle(seo.title, site.name);
  const image = seo.image ?? { ...DEFAULT_SHARE_IMAGE, alt: `${site.name}: ${site.tagline}` };
  const imageUrl = absoluteUrl(siteUrl, image.url);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:site_name", content: site.name },
    { property: "og:locale", content: "en_US" },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { property: "og:image:alt", content: image.alt ?? seo.title },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: seo.title },
    { name: "twitter:description", content: seo.description },
    { name: "twitter:image", content: imageUrl },
  ];
  if (image.width && image.height) {
    tags.push(
      { property: "og:image:width", content: String(image.width) },
      { property: "og:image:height", content: String(image.height) },
    );
  }
  if (seo.article) {
    tags.push({ property: "article:published_time", content: seo.article.publishedTime });
    if (seo.article.modifiedTime) {
      tags.push({ property: "article:modified_time", content: seo.article.modifiedTime });
    }
    if (seo.article.section) {
      tags.push({ property: "article:section", content: seo.article.section });
    }
    if (seo.article.author) tags.push({ property: "article:author", content: seo.article.author });
  }
  if (seo.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}

/**
 * A page's canonical location from the request a loader got: React Router's data requests
 * (`/page.data?_routes=…`) mean the same page.
 */
export function requestLocation(request: Request): { pathname: string; search: string } {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  const pathname = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  return { pathname, search: url.search };
}
