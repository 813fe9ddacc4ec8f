import type { ImgHTMLAttributes } from "react";
import { preload } from "react-dom";
import {
  FORMAT_FILES,
  fallbackVariant,
  focusInCopy,
  shapeSize,
  variantSrcset,
  type ArticlePicture,
} from "../../shared/picture";
import type { PictureSlot } from "./picture-slots";

const DEFAULT_IMAGE = "/images/default-article.svg";

type Props = Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  | "src"
  | "srcSet"
  | "sizes"
  | "onError"
  | "ref"
  | "width"
  | "height"
  | "loading"
  | "fetchPriority"
  | "slot"
> & {
  picture: ArticlePicture | null;
  alt: string;
  /** Where the picture is drawn (picture-slots.ts): its `sizes` and the widest copy it needs. */
  slot: PictureSlot;
  /**
   * How soon it loads: `priority` for the page's largest picture (LCP), fetched first and, when
   * it is a stored one, preloaded from the head; `lazy` (the default) for every other, fetched
   * once the page is laid out and it is near the screen. Other pictures fetched at once would
   * share a phone's bandwidth with the stylesheet the first paint waits for (docs/AUDIT.md).
   */
  load?: "priority" | "lazy";
  /** The box reserved when the picture's own size is not known (the default and site pictures). */
  width: number;
  height: number;
};

function showFallback(img: HTMLImageElement) {
  if (img.currentSrc.endsWith(DEFAULT_IMAGE)) return;
  // A failed copy inside <picture>: drop the sources so the default picture is what remains.
  const sources = img.parentElement?.querySelectorAll("source") ?? [];
  for (const source of sources) source.remove();
  img.removeAttribute("srcset");
  img.src = DEFAULT_IMAGE;
}

/**
 * An article's picture. A stored one is a `<picture>` of AVIF, WebP and JPEG copies from our own
 * origin, sized for its slot (cut around its focus, when it has one), with its true aspect ratio
 * reserved and its dominant colour shown while it loads; a site picture is its file; none, or one
 * that fails to load (even before the page hydrated), is the bundled default.
 */
export function ArticleImage({ picture, alt, slot, load = "lazy", width, height, ...rest }: Props) {
  const imgProps = {
    ...rest,
    // The page's largest picture is painted in the first frame it is ready for, not a later one.
    decoding: load === "priority" ? ("sync" as const) : ("async" as const),
    loading: load === "priority" ? ("eager" as const) : ("lazy" as const),
    fetchPriority: load === "priority" ? ("high" as const) : undefined,
    ref: (img: HTMLImageElement | null) => {
      if (img?.complete && img.naturalWidth === 0 && img.currentSrc) showFallback(img);
    },
    onError: (event: { currentTarget: HTMLImageElement }) => showFallback(event.currentTarget),
  };
  if (picture?.kind !== "stored") {
    // React preloads a plain <img> of the first screen by itself (the high-priority one first).
    return (
      <img
        {...imgProps}
        alt={alt}
        src={picture?.src ?? DEFAULT_IMAGE}
        width={width}
        height={height}
      />
    );
  }
  // Copies up to twice the slot's widest drawing cover screens of two device pixels per CSS pixel.
  const choice = { maxWidth: slot.maxWidth * 2, shape: slot.shape };
  const srcsets = {
    avif: variantSrcset(picture, "avif", choice),
    webp: variantSrcset(picture, "webp", choice),
  };
  const fallback = fallbackVariant(picture, slot.maxWidth, slot.shape);
  // The copies' own size: a wide slot's are the picture's middle 16:9 (or its 16:9 around its focus).
  const size = shapeSize(picture, slot.shape);
  // A box of other proportions than the copies' (community's top story) is covered around the focus.
  const focus = focusInCopy(picture, slot.shape);
  if (load === "priority") {
    // React does not preload an <img> inside <picture> (it cannot know which source wins): the
    // head names the AVIF copies, which every browser this site targets chooses.
    preload(fallback, {
      as: "image",
      imageSrcSet: srcsets.avif,
      imageSizes: slot.sizes,
      type: FORMAT_FILES.avif.type,
      fetchPriority: "high",
    });
  }
  return (
    // No box of its own: the <img> is laid out as the slot's classes say (h-full in a sized box,
    // shrink-0 in a row), as it was without the <picture> around it.
    <picture className="contents">
      {(["avif", "webp"] as const).map((format) => (
        <source
          key={format}
          type={FORMAT_FILES[format].type}
          srcSet={srcsets[format]}
          sizes={slot.sizes}
        />
      ))}
      <img
        {...imgProps}
        alt={alt}
        src={fallback}
        srcSet={variantSrcset(picture, "jpeg", choice)}
        sizes={slot.sizes}
        width={size.width}
        height={size.height}
        style={{
          ...rest.style,
          backgroundColor: picture.color,
          ...(focus ? { objectPosition: `${focus.x}% ${focus.y}%` } : {}),
        }}
      />
    </picture>
  );
}
