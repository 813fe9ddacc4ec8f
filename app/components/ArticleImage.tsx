import type { ImgHTMLAttributes } from "react";
import {
  FORMAT_FILES,
  fallbackVariant,
  variantSrcset,
  type ArticlePicture,
} from "../../shared/picture";

export const DEFAULT_IMAGE = "/images/default-article.svg";

type Props = Omit<
  ImgHTMLAttributes<HTMLImageElement>,
  "src" | "srcSet" | "sizes" | "onError" | "ref" | "width" | "height"
> & {
  picture: ArticlePicture | null;
  alt: string;
  /** The slot's `sizes`: how wide the picture is drawn at each viewport width. */
  sizes: string;
  /** The widest the slot ever draws the picture, in CSS pixels (its copies stop at twice that). */
  maxWidth: number;
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
 * origin, sized for its slot, with its true aspect ratio reserved and its dominant colour shown
 * while it loads; a site picture is its file; none, or one that fails to load (even before the
 * page hydrated), is the bundled default.
 */
export function ArticleImage({ picture, alt, sizes, maxWidth, width, height, ...rest }: Props) {
  const imgProps = {
    ...rest,
    decoding: "async" as const,
    ref: (img: HTMLImageElement | null) => {
      if (img?.complete && img.naturalWidth === 0 && img.currentSrc) showFallback(img);
    },
    onError: (event: { currentTarget: HTMLImageElement }) => showFallback(event.currentTarget),
  };
  if (picture?.kind !== "stored") {
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
  const limit = maxWidth * 2;
  return (
    <picture>
      {(["avif", "webp"] as const).map((format) => (
        <source
          key={format}
          type={FORMAT_FILES[format].type}
          srcSet={variantSrcset(picture, format, limit)}
          sizes={sizes}
        />
      ))}
      <img
        {...imgProps}
        alt={alt}
        src={fallbackVariant(picture, maxWidth)}
        srcSet={variantSrcset(picture, "jpeg", limit)}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        style={{ ...rest.style, backgroundColor: picture.color }}
      />
    </picture>
  );
}
