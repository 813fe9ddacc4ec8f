import { youtubeVideoId } from "../../../shared/video";

/**
 * The rich body editor's checks, kept pure so that a table of cases tests them: what an address
 * typed into the Link or Video box becomes, and which drops and pastes the editor refuses.
 */

/** A path on our own site: one slash, then not a second one (`//host` and `/\host` are hosts). */
const SITE_PATH = /^\/(?![/\\])[^\s\\]*$/;

/** An address the Link button accepts: http(s) to anywhere, or a path on our own site. */
function isLinkAddress(address: string): boolean {
  if (SITE_PATH.test(address)) return true;
  if (!/^https?:\/\//i.test(address)) return false;
  try {
    const url = new URL(address);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * The links the editor keeps from the body it opens or a paste: those the Link button makes, and
 * mail links, which Markdown bodies may have and the site's HTML policy keeps.
 */
export function isBodyLinkAddress(address: string): boolean {
  return isLinkAddress(address) || /^mailto:[^\s<>"'`\\]+$/i.test(address);
}

export type LinkAnswer =
  { kind: "set"; href: string } | { kind: "remove" } | { kind: "invalid"; message: string };

/** What the Link box's answer asks for: an empty box removes the link. */
export function linkAnswer(input: string): LinkAnswer {
  const address = input.trim();
  if (address === "") return { kind: "remove" };
  if (isLinkAddress(address)) return { kind: "set", href: address };
  return {
    kind: "invalid",
    message:
      "Give an address that starts with https:// or http://, or a path on this site that starts with /.",
  };
}

export type VideoAnswer = { kind: "set"; href: string } | { kind: "invalid"; message: string };

/** The Video box's answer: a YouTube address, linked alone in a paragraph that readers see as a player. */
export function videoAnswer(input: string): VideoAnswer {
  const address = input.trim();
  if (youtubeVideoId(address) !== null && isLinkAddress(address))
    return { kind: "set", href: address };
  return {
    kind: "invalid",
    message: "Give the address of a YouTube video, e.g. https://www.youtube.com/watch?v=…",
  };
}

/**
 * Whether a drop or paste carries files and nothing else: the editor refuses those, so a picture
 * never enters a body as a data: address (pictures are uploaded to the media library instead).
 * Text or HTML that comes along with files is parsed as usual, and the parser keeps only pictures
 * of our own store.
 */
export function carriesOnlyFiles(transfer: { types: readonly string[] } | null): boolean {
  if (!transfer) return false;
  const types = [...transfer.types];
  return (
    types.includes("Files") &&
    !types.some((type) => type === "text/html" || type === "text/plain" || type === "text/uri-list")
  );
}
