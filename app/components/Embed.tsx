import { useState } from "react";
import { privacyPlayerUrl, youtubeVideoId } from "../lib/video";

interface FrameProps {
  src: string;
  title: string;
  height: number;
  /** Providers whose widgets need scripts and their own origin; none gets top navigation or forms. */
  sandbox?: string;
}

const DEFAULT_SANDBOX =
  "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/** A provider's widget in a titled, sized, lazy, sandboxed frame. */
export function FrameEmbed({ src, title, height, sandbox = DEFAULT_SANDBOX }: FrameProps) {
  return (
    <iframe
      src={src}
      title={title}
      height={height}
      loading="lazy"
      sandbox={sandbox}
      referrerPolicy="strict-origin-when-cross-origin"
      className="w-full rounded border-0 bg-slate-100"
      style={{ height }}
    />
  );
}

interface VideoProps {
  url: string;
  title: string;
}

/**
 * A video that costs nothing until played: a poster linking to the video, replaced on click by the
 * privacy-enhanced player. Without JavaScript the link opens the video on its own site.
 */
export function VideoEmbed({ url, title }: VideoProps) {
  const id = youtubeVideoId(url);
  const [playing, setPlaying] = useState(false);
  if (!id) return null;
  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-lg bg-slate-900">
      {playing ? (
        <iframe
          src={privacyPlayerUrl(id, true)}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          className="absolute inset-0 h-full w-full border-0"
        />
      ) : (
        <a
          href={`https://www.youtube.com/watch?v=${id}`}
          onClick={(event) => {
            event.preventDefault();
            setPlaying(true);
          }}
          className="group absolute inset-0 flex flex-col items-center justify-center gap-3 bg-gradient-to-br from-brand-dark to-slate-900 text-white"
        >
          <span
            aria-hidden="true"
            className="flex h-16 w-16 items-center justify-center rounded-full bg-red-600 text-3xl shadow-lg group-hover:scale-105"
          >
            ▶
          </span>
          <span className="px-4 text-center font-semibold">Play video: {title}</span>
        </a>
      )}
    </div>
  );
}
