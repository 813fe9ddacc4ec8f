import { CROPS, cropPath, type ArticlePicture } from "../../shared/picture";
import type { Article } from "../../shared/article";
import { escapeHtml } from "../lib/text";

/** Characters XML 1.0 cannot hold at all (controls other than tab and line ends, lone surrogates). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** An item's picture in a feed: its 16:9 crop (around its focus) from our origin, or its file. */
function mediaContent(siteUrl: string, picture: ArticlePicture): string {
  if (picture.kind === "site") {
    return `<media:content url="${xmlText(siteUrl + picture.src)}" medium="image"/>`;
  }
  const { width, height } = CROPS["16x9"];
  const url = siteUrl + cropPath(picture.hash, "16x9", picture.focus);
  return `<media:content url="${xmlText(url)}" medium="image" type="image/jpeg" width="${width}" height="${height}"/>`;
}

/** What xmlText changes: a character XML cannot hold, or one it must escape. */
const NEEDS_CARE = /[&<>"']|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ESCAPED: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Text for an XML element or a double-quoted attribute. Most text (every sitemap address) needs
 * nothing, and one test says so: a month's sitemap of 8,000 addresses was a third escaping.
 */
export function xmlText(value: string): string {
  if (!NEEDS_CARE.test(value)) return value;
  return value.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ESCAPED[c] ?? c);
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export function sitemapIndex(siteUrl: string, files: { path: string; lastmod: Date | null }[]) {
  const entries = files.map(
    (f) =>
      `<sitemap><loc>${xmlText(`${siteUrl}${f.path}`)}</loc>${f.lastmod ? `<lastmod>${f.lastmod.toISOString()}</lastmod>` : ""}</sitemap>`,
  );
  return `${XML_DECLARATION}\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

export function urlSet(siteUrl: string, urls: { path: string; lastmod: Date | null }[]) {
  const entries = urls.map(
    (u) =>
      `<url><loc>${xmlText(`${siteUrl}${u.path}`)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ""}</url>`,
  );
  return `${XML_DECLARATION}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}

export function newsSitemap(
  siteUrl: string,
  siteName: string,
  items: { id: string; title: string; publishedAt: Date }[],
) {
  const entries = items.map(
    (a) =>
      `<url><loc>${xmlText(`${siteUrl}/article/${a.id}`)}</loc><news:news><news:publication><news:name>${xmlText(siteName)}</news:name><news:language>en</news:language></news:publication><news:publication_date>${a.publishedAt.toISOString()}</news:publication_date><news:title>${xmlText(a.title)}</news:title></news:news></url>`,
  );
  return `${XML_DECLARATION}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}

/** One item of an RSS feed of ours. */
export interface RssItem {
  /** Our page of it, absolute: the item's link and its guid. */
  url: string;
  title: string;
  /** ISO 8601; an item without one has no pubDate. */
  date: string | null;
  author?: string;
  category?: string;
  /** Plain text (which may spell out markup). */
  description: string;
  picture: ArticlePicture | null;
}

/**
 * An RSS 2.0 feed of our pages: each item links to our page, with its text as its description and
 * its picture as media:content. Readers render a description as HTML, so the text is escaped as
 * HTML before it is escaped as XML. The newest item's date is the feed's lastBuildDate.
 */
export function rssChannel(options: {
  siteUrl: string;
  /** Our address of this feed, for atom:link rel="self". */
  selfPath: string;
  /** The page the feed mirrors. */
  pagePath: string;
  title: string;
  description: string;
  items: RssItem[];
}): string {
  const { siteUrl } = options;
  const newest = options.items.find((item) => item.date)?.date;
  const items = options.items.map((item) => {
    const lines = [
      `<title>${xmlText(item.title)}</title>`,
      `<link>${xmlText(item.url)}</link>`,
      `<guid isPermaLink="true">${xmlText(item.url)}</guid>`,
      ...(item.date ? [`<pubDate>${new Date(item.date).toUTCString()}</pubDate>`] : []),
      ...(item.author !== undefined ? [`<dc:creator>${xmlText(item.author)}</dc:creator>`] : []),
      ...(item.category !== undefined ? [`<category>${xmlText(item.category)}</category>`] : []),
      `<description>${xmlText(escapeHtml(item.description))}</description>`,
      ...(item.picture ? [mediaContent(siteUrl, item.picture)] : []),
    ];
    return `<item>\n${lines.join("\n")}\n</item>`;
  });
  return `${XML_DECLARATION}
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
<title>${xmlText(options.title)}</title>
<link>${xmlText(`${siteUrl}${options.pagePath}`)}</link>
<description>${xmlText(options.description)}</description>
<language>en-us</language>
<atom:link href="${xmlText(`${siteUrl}${options.selfPath}`)}" rel="self" type="application/rss+xml"/>
<ttl>15</ttl>${newest ? `\n<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : ""}
${items.join("\n")}
</channel>
</rss>
`;
}

/**
 * An RSS 2.0 feed of our articles: each item links to our article page (whose "Read full article"
 * leads to the original), with the excerpt as its description and the picture as media:content.
 */
export function rssFeed(options: {
  siteUrl: string;
  /** Our address of this feed, for atom:link rel="self". */
  selfPath: string;
  /** The page the feed mirrors. */
  pagePath: string;
  title: string;
  description: string;
  articles: Article[];
  categoryName: (article: Article) => string;
}): string {
  const { articles, categoryName, ...channel } = options;
  return rssChannel({
    ...channel,
    items: articles.map((a) => ({
      url: `${options.siteUrl}/article/${a.id}`,
      title: a.title,
      date: a.date,
      author: a.author,
      category: categoryName(a),
      description: a.excerpt,
      picture: a.picture,
    })),
  });
}

/**
 * The RSS 2.0 feed of corrections: one item per correction, titled after its story and linking to
 * it (the story's page shows the correction above its body).
 */
export function correctionsFeed(options: {
  siteUrl: string;
  selfPath: string;
  title: string;
  description: string;
  corrections: readonly {
    id: number;
    text: string;
    date: string;
    article: { id: string; title: string };
  }[];
}): string {
  const { siteUrl, corrections } = options;
  const newest = corrections[0]?.date;
  const items = corrections.map((c) => {
    const url = `${siteUrl}/article/${c.article.id}`;
    return `<item>
<title>${xmlText(`Correction: ${c.article.title}`)}</title>
<link>${xmlText(url)}</link>
<guid isPermaLink="false">${xmlText(`${siteUrl}/corrections#${c.id}`)}</guid>
<pubDate>${new Date(c.date).toUTCString()}</pubDate>
<description>${xmlText(escapeHtml(c.text))}</description>
</item>`;
  });
  return `${XML_DECLARATION}
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${xmlText(options.title)}</title>
<link>${xmlText(`${siteUrl}/corrections`)}</link>
<description>${xmlText(options.description)}</description>
<language>en-us</language>
<atom:link href="${xmlText(`${siteUrl}${options.selfPath}`)}" rel="self" type="application/rss+xml"/>
<ttl>15</ttl>${newest ? `\n<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>` : ""}
${items.join("\n")}
</channel>
</rss>
`;
}
