import { structuredDataImages, type ArticlePicture } from "./picture";
import type {
  BlogPosting,
  BreadcrumbList,
  ContactPage,
  FAQPage,
  ItemList,
  NewsArticle,
  NewsMediaOrganization,
  Thing,
  WebSite,
} from "schema-dts";
import type { Article, OwnStoryDetails } from "./article";
import { categoryByKey } from "./categories";
import { absoluteUrl } from "./seo";

/**
 * schema.org data for search engines. Every page gets one JSON-LD block: a graph of the
 * publication, the web site and what the page itself adds (its route's `handle.structuredData`).
 */

export interface StructuredDataArgs<Data> {
  data: Data;
  siteUrl: string;
  /** The page's address on SITE_URL, without its query. */
  url: string;
}

/**
 * A node of the graph once built: plain JSON. (The builders below return schema-dts types, which
 * check each node; React Router's loader-data types cannot carry those deep types, so they travel as this.)
 */
export type LinkedData = Record<string, unknown>;

/** Builders' output as plain JSON nodes. */
export const linked = (things: Thing[]): LinkedData[] => things as unknown as LinkedData[];

/** A route's contribution to the page's graph. */
export type StructuredData<Data> = (args: StructuredDataArgs<Data>) => LinkedData[];

const organizationId = (siteUrl: string) => `${siteUrl}/#organization`;
const webSiteId = (siteUrl: string) => `${siteUrl}/#website`;

/** What the graph says of the publication: its site settings (content/site.yaml). */
export interface Publication {
  name: string;
  tagline: string;
  foundingYear: number;
  contact: {
    phone: string;
    email: string;
    address: Record<"street" | "locality" | "region" | "postalCode" | "country", string>;
  };
  social: { url: string }[];
}

export function organization(siteUrl: string, site: Publication): NewsMediaOrganization {
  const { contact } = site;
  return {
    "@type": "NewsMediaOrganization",
    "@id": organizationId(siteUrl),
    name: site.name,
    url: `${siteUrl}/`,
    description: site.tagline,
    foundingDate: String(site.foundingYear),
    logo: {
      "@type": "ImageObject",
      url: `${siteUrl}/icons/icon-512.png`,
      width: "512",
      height: "512",
    },
    address: {
      "@type": "PostalAddress",
      streetAddress: contact.address.street,
      addressLocality: contact.address.locality,
      addressRegion: contact.address.region,
      postalCode: contact.address.postalCode,
      addressCountry: contact.address.country,
    },
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "customer support",
      telephone: contact.phone,
      email: contact.email,
      areaServed: "San Diego County",
      availableLanguage: "English",
    },
    sameAs: site.social.map((s) => s.url),
  };
}

export function webSite(siteUrl: string, siteName: string): WebSite {
  // schema.org's SearchAction takes a "query-input" that schema-dts does not type.
  const search = {
    "@type": "SearchAction",
    target: { "@type": "EntryPoint", urlTemplate: `${siteUrl}/search?q={search_term_string}` },
    "query-input": "required name=search_term_string",
  } as WebSite["potentialAction"];
  return {
    "@type": "WebSite",
    "@id": webSiteId(siteUrl),
    url: `${siteUrl}/`,
    name: siteName,
    inLanguage: "en-US",
    publisher: { "@id": organizationId(siteUrl) },
    potentialAction: search,
  };
}

/** Home, then each step to the page (the last one is the page itself). */
export function breadcrumbs(
  siteUrl: string,
  steps: { name: string; path: string }[],
): BreadcrumbList {
  return {
    "@type": "BreadcrumbList",
    itemListElement: [{ name: "Home", path: "/" }, ...steps].map((step, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: step.name,
      item: `${siteUrl}${step.path}`,
    })),
  };
}

export function articleList(siteUrl: string, name: string, articles: Article[]): ItemList {
  return {
    "@type": "ItemList",
    name,
    numberOfItems: articles.length,
    itemListElement: articles.map((article, i) => ({
      "@type": "ListItem",
      position: i + 1,
      url: `${siteUrl}/article/${article.id}`,
      name: article.title,
    })),
  };
}

/** An own story's authors: each byline a Person, or the publication when it has none. */
function ownAuthors(siteUrl: string, bylines: readonly string[]): NewsArticle["author"] {
  if (bylines.length === 0) return { "@id": organizationId(siteUrl) };
  return bylines.map((name) => ({ "@type": "Person", name }));
}

/**
 * A story, with its corrections (newest first) as schema.org CorrectionComments, which search
 * engines show with it. An own story names each of its bylines as an author (the publication
 * when it has none); a feed story names its feed's author and is based on the outlet's page.
 */
export function newsArticle(
  siteUrl: string,
  url: string,
  article: Article & { ownStory?: Pick<OwnStoryDetails, "bylines"> },
  corrections: readonly { text: string; date: string }[] = [],
): NewsArticle {
  const bylines = article.ownStory?.bylines;
  return {
    "@type": "NewsArticle",
    headline: article.title,
    description: article.excerpt,
    image: (structuredDataImages(article.picture) ?? ["/images/og-default.png"]).map((path) =>
      absoluteUrl(siteUrl, path),
    ),
    datePublished: article.date,
    author: bylines ? ownAuthors(siteUrl, bylines) : { "@type": "Person", name: article.author },
    publisher: { "@id": organizationId(siteUrl) },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    articleSection: categoryByKey(article.category).name,
    ...(bylines ? {} : { isBasedOn: article.link }),
    url,
    ...(corrections.length > 0
      ? {
          correction: corrections.map((c) => ({
            "@type": "CorrectionComment" as const,
            text: c.text,
            datePublished: c.date,
          })),
        }
      : {}),
  };
}

export function blogPosting(
  siteUrl: string,
  url: string,
  post: {
    title: string;
    description: string;
    picture: ArticlePicture | null;
    date: string | null;
    author: string | null;
    /** A newsroom post's writers: each a Person (the publication when there is none). */
    bylines?: readonly string[];
    keywords: string[];
  },
): BlogPosting {
  const images = structuredDataImages(post.picture);
  return {
    "@type": "BlogPosting",
    headline: post.title,
    description: post.description,
    ...(images ? { image: images.map((path) => absoluteUrl(siteUrl, path)) } : {}),
    ...(post.date ? { datePublished: post.date } : {}),
    author: post.bylines
      ? ownAuthors(siteUrl, post.bylines)
      : post.author
        ? { "@type": "Person", name: post.author }
        : { "@id": organizationId(siteUrl) },
    publisher: { "@id": organizationId(siteUrl) },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(post.keywords.length > 0 ? { keywords: post.keywords.join(", ") } : {}),
    url,
  };
}

export function faqPage(items: { question: string; answer: string }[]): FAQPage {
  return {
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer },
    })),
  };
}

export function contactPage(siteUrl: string, url: string, siteName: string): ContactPage {
  return {
    "@type": "ContactPage",
    name: `Contact ${siteName}`,
    url,
    about: { "@id": organizationId(siteUrl) },
  };
}
