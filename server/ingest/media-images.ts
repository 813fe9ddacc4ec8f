/**
 * The picture candidates an item names outside its HTML, best first: media:content images by size, then
 * media:thumbnail, image enclosures, itunes:image and <image>.
 */
import { ATOM, text } from "./fields";
import { attr, childNamed, childrenNamed, hasElements, type XmlElement } from "./xml";

const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif|bmp)(?:$|[?#])/i;

function looksLikeImage(url: string): boolean {
  return IMAGE_PATH.test(url);
}

function isImageType(type: string | null): boolean {
  return type !== null && type.trim().toLowerCase().startsWith("image/");
}

function mediaImages(item: XmlElement): string[] {
  const groups = childrenNamed(item, "media", "group");
  const contents = [item, ...groups].flatMap((el) => childrenNamed(el, "media", "content"));
  const images = contents
    .map((el, index) => ({ el, index, width: Number(attr(el, "width") ?? "0") || 0 }))
    .filter(({ el }) => {
      const url = attr(el, "url");
      if (url === null) return false;
      const medium = attr(el, "medium")?.toLowerCase() ?? null;
      const type = attr(el, "type");
      if (medium === "image" || isImageType(type)) return true;
      return medium === null && type === null && looksLikeImage(url);
    })
    // The largest rendition first; feeds list several sizes of one picture.
    .sort((a, b) => b.width - a.width || a.index - b.index)
    .map(({ el }) => attr(el, "url") ?? "");
  const thumbnails = [item, ...groups, ...contents]
    .flatMap((el) => childrenNamed(el, "media", "thumbnail"))
    .map((el) => attr(el, "url") ?? "");
  return [...images, ...thumbnails];
}

function enclosureImages(item: XmlElement): string[] {
  const rss = childrenNamed(item, "", "enclosure").map((el) => ({
    url: attr(el, "url"),
    type: attr(el, "type"),
  }));
  const enc = childrenNamed(item, "enc", "enclosure").map((el) => ({
    url: attr(el, "rdf:resource") ?? attr(el, "url"),
    type: attr(el, "enc:type") ?? attr(el, "type"),
  }));
  const atom = childrenNamed(item, ATOM, "link")
    .filter((el) => attr(el, "rel")?.toLowerCase() === "enclosure")
    .map((el) => ({ url: attr(el, "href"), type: attr(el, "type") }));
  return [...rss, ...enc, ...atom]
    .filter(
      ({ url, type }) =>
        url !== null && (isImageType(type) || (type === null && looksLikeImage(url))),
    )
    .map(({ url }) => url ?? "");
}

function otherImages(item: XmlElement): string[] {
  const itunes = childrenNamed(item, "itunes", "image").map(
    (el) => attr(el, "href") ?? text(el) ?? "",
  );
  const plain = childrenNamed(item, "", "image").map((el) => {
    const url = childNamed(el, "", "url");
    if (url !== null) return text(url) ?? "";
    // <image><link>…</link><title>…</title></image> without a <url> is no image.
    if (hasElements(el)) return "";
    const value = attr(el, "href") ?? attr(el, "url") ?? text(el) ?? "";
    return /^(https?:)?\/\//i.test(value) ? value : "";
  });
  return [...itunes, ...plain];
}

export function imagesOf(item: XmlElement): string[] {
  const all = [...mediaImages(item), ...enclosureImages(item), ...otherImages(item)];
  return [...new Set(all.map((url) => url.trim()).filter((url) => url !== ""))];
}
