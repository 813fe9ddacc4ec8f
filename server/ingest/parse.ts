/**
 * Feed bytes to a ParsedFeed: the bytes decoded (encoding.ts), the XML read safely and leniently
 * (feed-document.ts), and the root element deciding the format (rss.ts, atom.ts).
 *
 * The title, summary and content of a RawItem are HTML: RSS fields as feeds write them
 * (escaped, CDATA or naked markup), Atom constructs of type text escaped, xhtml serialised, base64 decoded.
 */
import { readAtom } from "./atom";
import { decodeFeedBytes } from "./encoding";
import { FeedParseError, readFeedDocument, type FeedDocument } from "./feed-document";
import { readRss } from "./rss";
import type { ParsedFeed } from "./types";

export { FeedParseError } from "./feed-document";

/**
 * Reads an RSS 0.9x/2.0, RSS 1.0 (RDF) or Atom 1.0/0.3 document. Throws FeedParseError, with a one-line
 * message, when the body is not a feed or cannot be read at all; a damaged feed yields what it holds.
 */
export function parseFeed(
  body: Uint8Array,
  options: { contentType?: string | null } = {},
): ParsedFeed {
  return feedFromDocument(readFeedDocument(decodeFeedBytes(body, options.contentType)));
}

export interface FeedOptions {
  /**
   * Whether an RSS channel's link is the base of its items' relative links where no xml:base is given
   * (the default). Not for a feed read from a file: it has no address of its own, and its channel link
   * names a publisher, not where its relative paths live.
   */
  channelLinkAsBase?: boolean;
}

/** The feed a document holds, read by its root element. Throws FeedParseError when it holds none. */
export function feedFromDocument(
  { root, damaged }: FeedDocument,
  { channelLinkAsBase = true }: FeedOptions = {},
): ParsedFeed {
  if (root.local.toLowerCase() === "html") {
    throw new FeedParseError("Not a feed: the document is HTML");
  }
  if (root.local === "rss" || (root.local === "channel" && root.ns === "")) {
    return { ...readRss(root, "rss", channelLinkAsBase), damaged };
  }
  if (root.local === "RDF") return { ...readRss(root, "rdf", channelLinkAsBase), damaged };
  if (root.local === "feed") return { ...readAtom(root), damaged };
  throw new FeedParseError(`Not a feed: the root element is <${root.name}>`);
}
