import { youtubeVideoId } from "./video";

/**
 * A body's YouTube links that stand alone, as the site's video player. A writer pastes a video's
 * address on a line of its own; the sanitiser (server/ingest/sanitize.ts) writes that line as
 * `<p><a href="URL" target="_blank" rel="noopener noreferrer">TEXT</a></p>`. Such a paragraph at
 * the body's top level, linking to a YouTube video, becomes a `video` part; the rest stays HTML.
 * Pure, so the server and the browser cut a body the same way.
 */

export type BodySegment =
  { kind: "html"; html: string } | { kind: "video"; url: string; title: string };

/** Start and end tags, as the sanitiser writes them (double-quoted, escaped attributes). */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g;
/** Elements that have no end tag (those the sanitiser and the pictures of a body can write). */
const VOID = new Set(["area", "br", "col", "hr", "img", "source", "track", "wbr"]);
/** The paragraph that is nothing but a link; its text may hold inline tags, no other link. */
const LINK_PARAGRAPH =
  /<p>\s*<a href="([^"]*)" target="_blank" rel="noopener noreferrer">((?:(?!<\/?(?:a|p)\b)[\s\S])*)<\/a>\s*<\/p>/y;

const ENTITY = /&(?:amp|lt|gt|quot|apos|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const NAMED: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
};

/** Text as the sanitiser escaped it (`&`, `<`, `>`, `"` and numeric references), read back. */
function unescapeHtml(text: string): string {
  return text.replace(ENTITY, (entity, decimal?: string, hex?: string) => {
    if (decimal === undefined && hex === undefined) return NAMED[entity] ?? entity;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex ?? "", 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** The player's name: the link's words, or "YouTube video" when they are only the address. */
function videoTitle(linkHtml: string): string {
  const text = unescapeHtml(linkHtml.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return text === "" || /^https?:\/\//i.test(text) ? "YouTube video" : text;
}

/** A video link standing alone in a body: its paragraph runs from `start` to `end` in the HTML. */
export interface BodyVideo {
  /** The YouTube video id. */
  id: string;
  /** The player's name: the link's words, or "YouTube video". */
  title: string;
  start: number;
  end: number;
}

/** The body's standalone YouTube links, in order, each with its paragraph's place in `html`. */
export function bodyVideos(html: string): BodyVideo[] {
  const videos: BodyVideo[] = [];
  let depth = 0;
  TAG.lastIndex = 0;
  for (let tag = TAG.exec(html); tag; tag = TAG.exec(html)) {
    const [text, closing, name = ""] = tag;
    if (depth === 0 && text === "<p>") {
      LINK_PARAGRAPH.lastIndex = tag.index;
      const paragraph = LINK_PARAGRAPH.exec(html);
      const id = paragraph ? youtubeVideoId(unescapeHtml(paragraph[1] ?? "")) : null;
      if (paragraph && id) {
        const end = LINK_PARAGRAPH.lastIndex;
        videos.push({ id, title: videoTitle(paragraph[2] ?? ""), start: tag.index, end });
        TAG.lastIndex = end;
        continue;
      }
    }
    if (closing) depth = Math.max(0, depth - 1);
    else if (!VOID.has(name.toLowerCase()) && !text.endsWith("/>")) depth++;
  }
  return videos;
}

/** The body in order, its standalone YouTube links as `video` parts (their addresses as written). */
export function splitBodyVideos(html: string): BodySegment[] {
  const segments: BodySegment[] = [];
  const pushHtml = (part: string) => {
    if (part.trim() !== "") segments.push({ kind: "html", html: part });
  };
  let last = 0;
  for (const video of bodyVideos(html)) {
    pushHtml(html.slice(last, video.start));
    const href = /href="([^"]*)"/.exec(html.slice(video.start, video.end))?.[1] ?? "";
    segments.push({ kind: "video", url: unescapeHtml(href), title: video.title });
    last = video.end;
  }
  pushHtml(html.slice(last));
  return segments;
}

/** The body without its standalone YouTube links: its words, for an excerpt. */
export function withoutBodyVideos(html: string): string {
  let out = "";
  let last = 0;
  for (const video of bodyVideos(html)) {
    out += html.slice(last, video.start);
    last = video.end;
  }
  return out + html.slice(last);
}
