import type { ImgHTMLAttributes } from "react";

export const DEFAULT_IMAGE = "/images/default-article.svg";

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "onError" | "ref"> & {
  src: string | null;
  alt: string;
};

function showFallback(img: HTMLImageElement) {
  if (!img.src.endsWith(DEFAULT_IMAGE)) img.src = DEFAULT_IMAGE;
}

/**
 * A feed image with the bundled default when there is none or when the remote one fails, including
 * failures that happened before the page hydrated. Width and height reserve its box.
 */
export function ArticleImage({ src, alt, ...rest }: Props) {
  return (
    <img
      {...rest}
      src={src ?? DEFAULT_IMAGE}
      alt={alt}
      decoding="async"
      ref={(img) => {
        if (img?.complete && img.naturalWidth === 0 && img.currentSrc) showFallback(img);
      }}
      onError={(event) => showFallback(event.currentTarget)}
    />
  );
}
