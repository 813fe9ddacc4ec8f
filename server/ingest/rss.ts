/**
 * An RSS 0.9x/2.0 or RSS 1.0 (RDF) document to a ParsedFeed: the channel, its items (inside the channel,
 * or its siblings in RDF) and the fields feeds carry in other namespaces (Dublin Core, Atom, media, ...).
 */
import { atomAuthors, atomHtml } from "./atom";
import {
  ATOM,
  firstText,
  hasContent,
  inMediaGroups,
  joined,
  pickAuthor,
  plainAsHtml,
  rssHtml,
  text,
  xmlBase,
} from "./fields";
import { imagesOf } from "./media-images";
import { stripTags } from "./sanitize";
import type { ParsedFeed, RawItem } from "./types";
import { attr, childNamed, childrenNamed, elements, type XmlElement } from "./xml";

function readRssItem(item: XmlElement, parentBase: string | null): RawItem {
  const guidEl = childNamed(item, "", "guid");
  const guid = text(guidEl) ?? attr(item, "rdf:about") ?? text(childNamed(item, ATOM, "id"));
  const atomLink = childrenNamed(item, "atom", "link").find((el) => {
    const rel = attr(el, "rel")?.toLowerCase() ?? "alternate";
    return rel === "alternate";
  });
  let link =
    text(childNamed(item, "feedburner", "origLink")) ??
    firstText(childrenNamed(item, "", "link")) ??
    (atomLink ? attr(atomLink, "href") : null);
  if (link === null && guidEl !== null && guid !== null) {
    const permaLink = (attr(guidEl, "isPermaLink") ?? "true").trim().toLowerCase() !== "false";
    if (permaLink && /^https?:\/\//i.test(guid)) link = guid;
  }
  const media = childrenNamed(item, "media", "group");
  return {
    guid,
    title:
      rssHtml(childNamed(item, "", "title")) ??
      plainAsHtml(childNamed(item, "dc", "title")) ??
      atomHtml(childNamed(item, "atom", "title"), "text") ??
      plainAsHtml(childNamed(item, "media", "title") ?? inMediaGroups(media, "title")),
    link,
    summary:
      rssHtml(childNamed(item, "", "description")) ??
      rssHtml(childNamed(item, "dc", "description")) ??
      atomHtml(childNamed(item, "atom", "summary"), "text") ??
      plainAsHtml(childNamed(item, "itunes", "summary")) ??
      plainAsHtml(childNamed(item, "media", "description") ?? inMediaGroups(media, "description")),
    content:
      rssHtml(childNamed(item, "content", "encoded")) ??
      rssHtml(childNamed(item, "xhtml", "body")) ??
      rssHtml(childNamed(item, "", "fullitem")) ??
      atomHtml(childNamed(item, "atom", "content"), "content"),
    date: firstText([
      childNamed(item, "", "pubDate"),
      childNamed(item, "dc", "date"),
      childNamed(item, "atom", "published"),
      childNamed(item, "atom", "updated"),
      childNamed(item, "dcterms", "issued"),
      childNamed(item, "dcterms", "modified"),
      childNamed(item, "dcterms", "created"),
      childNamed(item, "dcterms", "date"),
    ]),
    author: pickAuthor([
      text(childNamed(item, "", "author")),
      joined(childrenNamed(item, "dc", "creator").map(text)),
      text(childNamed(item, "dc", "author")),
      text(childNamed(item, "itunes", "author")),
      atomAuthors(item),
    ]),
    images: imagesOf(item),
    base: xmlBase(item, parentBase),
  };
}

/** Finds an element by name anywhere below `el` (bounded), for feeds whose structure is broken. */
function findDescendant(el: XmlElement, ns: string, local: string, depth = 0): XmlElement | null {
  for (const child of elements(el)) {
    if (child.local === local && child.ns === ns) return child;
    if (depth < 4) {
      const found = findDescendant(child, ns, local, depth + 1);
      if (found !== null) return found;
    }
  }
  return null;
}

function ttlOf(channel: XmlElement | null): number | null {
  const ttl = channel === null ? null : text(childNamed(channel, "", "ttl"));
  if (ttl === null || !/^\d+$/.test(ttl)) return null;
  const minutes = Number(ttl);
  return minutes > 0 ? minutes : null;
}

export function readRss(
  root: XmlElement,
  format: "rss" | "rdf",
  channelLinkAsBase: boolean,
): Omit<ParsedFeed, "damaged"> {
  const rootBase = xmlBase(root, null);
  const channel =
    childNamed(root, "", "channel") ??
    (root.local === "channel" ? root : findDescendant(root, "", "channel"));
  const channelBase = channel === null ? rootBase : xmlBase(channel, rootBase);
  const feedLink = channel === null ? null : firstText(childrenNamed(channel, "", "link"));
  const items = [
    ...(channel !== null && channel !== root ? childrenNamed(channel, "", "item") : []),
    ...childrenNamed(root, "", "item"),
  ];
  // The channel link is where a site-relative item link points, unless xml:base says otherwise.
  const itemBase = channelBase ?? (channelLinkAsBase ? feedLink : null);
  const titleHtml = channel === null ? null : rssHtml(childNamed(channel, "", "title"));
  return {
    format,
    title: titleHtml === null ? null : stripTags(titleHtml) || null,
    link: feedLink,
    ttlMinutes: ttlOf(channel),
    items: items.map((item) => readRssItem(item, itemBase)).filter(hasContent),
  };
}
