import { useState } from "react";
import { Link } from "react-router";
import { privacyPlayerUrl, youtubeVideoId } from "../../shared/video";

interface FrameProps {
  src: string;
  title: string;
  height: number;
  /** Providers whose widgets need scripts and their own origin; none gets top navigation or forms. */
  sandbox?: string;
  /** Takes the keyboard focus when it appears (after a reader asked for it). */
  focus?: boolean;
}

const DEFAULT_SANDBOX =
  "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";

/** A link in an embed's fallback text, here and on the pages that write their own. */
export const LINK = "text-brand underline decoration-1 underline-offset-2 hover:decoration-2";

/** A provider's widget in a titled, sized, lazy, sandboxed frame. */
export function FrameEmbed({
  src,
  title,
  height,
  sandbox = DEFAULT_SANDBOX,
  focus = false,
}: FrameProps) {
  return (
    <iframe
      ref={focus ? (frame) => frame?.focus() : undefined}
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

/** The box an embed shows before it loads, or instead of it: a short text and one way on. */
function EmbedCard({
  icon,
  title,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div
      data-embed-card=""
      className="flex min-h-56 flex-col items-center justify-center gap-3 rounded-lg bg-white p-6 text-center shadow-sm ring-1 ring-slate-200"
    >
      <span
        aria-hidden="true"
        className="flex h-12 w-12 items-center justify-center rounded-full bg-brand/10 text-brand"
      >
        {icon}
      </span>
      <p className="text-lg font-semibold">{title}</p>
      {children}
    </div>
  );
}

const BUTTON =
  "inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand";

interface ClickToLoadProps {
  /** The provider's address; null when none is configured. */
  src: string | null;
  /** The frame's accessible name, in sentence case ("Holiday calendar"). */
  title: string;
  height: number;
  /** A small picture of what the widget is (components/Icons.tsx). */
  icon: React.ReactNode;
  /** What the widget shows, one sentence. */
  description: string;
  /** What a reader is offered when no provider is configured: a sentence with a link. */
  fallback: React.ReactNode;
}

/**
 * A provider's widget that costs nothing until asked for (DCR's ClickToView): a card that says what
 * it is, with a link to the widget's own page. With JavaScript the link loads the widget here, in
 * its frame; without it the link opens it. Nothing of the provider's loads before the click. With no
 * provider configured the card stays, offering `fallback` instead, so the page has no hole.
 */
export function ClickToLoadFrame({
  src,
  title,
  height,
  icon,
  description,
  fallback,
}: ClickToLoadProps) {
  const [loaded, setLoaded] = useState(false);
  if (!src) {
    return (
      <EmbedCard icon={icon} title={title}>
        <p className="max-w-prose text-slate-700">{fallback}</p>
      </EmbedCard>
    );
  }
  if (loaded) {
    return (
      <>
        <FrameEmbed src={src} title={title} height={height} focus />
        <p className="mt-2 text-sm">
          <a href={src} rel="noopener noreferrer" className={LINK}>
            Open the {title.toLowerCase()} on its own page
          </a>
        </p>
      </>
    );
  }
  return (
    <EmbedCard icon={icon} title={title}>
      <p className="max-w-prose text-slate-700">{description}</p>
      <a
        href={src}
        rel="noopener noreferrer"
        onClick={(event) => {
          event.preventDefault();
          setLoaded(true);
        }}
        className={BUTTON}
      >
        Show the {title.toLowerCase()}
      </a>
      <p className="max-w-prose text-xs text-slate-600">
        It comes from an outside provider, loaded only when you ask for it.
      </p>
    </EmbedCard>
  );
}

interface VideoProps {
  /** The video's address; null or one with no video id shows the video as unavailable. */
  url: string | null;
  title: string;
}

/**
 * A video that costs nothing until played: a poster linking to the video, replaced on click by the
 * privacy-enhanced player. Without JavaScript the link opens the video on its own site. An address
 * with no video id still gets the block (the spec builds the embed with an empty id), saying the
 * video is unavailable instead of showing a broken player.
 */
export function VideoEmbed({ url, title }: VideoProps) {
  const id = youtubeVideoId(url);
  const [playing, setPlaying] = useState(false);
  return (
    <div
      data-video-state={id ? (playing ? "playing" : "ready") : "unavailable"}
      className="relative aspect-video w-full overflow-hidden rounded-lg bg-slate-900"
    >
      {!id ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-gradient-to-br from-slate-700 to-slate-900 px-4 text-center text-white">
          <span
            aria-hidden="true"
            className="flex h-14 w-14 items-center justify-center rounded-full border-2 border-white/60 text-2xl text-white/80"
          >
            ▶
          </span>
          <p className="font-semibold">Video unavailable</p>
          <p className="text-sm text-slate-200">
            This video cannot be played at the moment.{" "}
            <Link to="/blog" className="underline underline-offset-2 hover:decoration-2">
              See our latest guides
            </Link>
          </p>
        </div>
      ) : playing ? (
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
