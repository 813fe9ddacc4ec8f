import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { alsoCoveredByLine, OWN_STORY_LABEL, type Article } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import { useHydrated } from "../lib/use-hydrated";
import { ArticleImage } from "./ArticleImage";
import { PICTURE_SLOTS } from "./picture-slots";

/**
 * Each slide leaves room for the next one's edge: the sign that more stories follow. The last,
 * with none after it, fills the strip: narrower, the strip could not scroll it to its left edge,
 * and the slide before would show cut beside it.
 */
const SLIDE_WIDTH = "w-[88%] md:w-[94%]";

const ARROW =
  "pointer-events-auto rounded-full bg-white/90 px-3 py-2 text-xl font-bold text-slate-900 shadow";

/** The index before or after `index`, wrapping around at both ends. */
export function wrapIndex(index: number, count: number): number {
  return count === 0 ? 0 : ((index % count) + count) % count;
}

/**
 * The featured stories. Without JavaScript it is a horizontally scrollable strip (scroll-snap)
 * whose next slide shows at the edge, so a reader sees that more follow; with it, previous/next
 * buttons wrap at both ends, dots jump to a slide on small screens, and the slide change is
 * announced politely. Below 768 px a slide's text sits under its picture, where the buttons (over
 * the picture) cannot cover it; wider, it lies over the picture, between the buttons.
 */
export function FeaturedSlider({ articles }: { articles: Article[] }) {
  const hydrated = useHydrated();
  const track = useRef<HTMLUListElement>(null);
  const [current, setCurrent] = useState(0);
  // While a button scrolls the strip, the slides it passes on the way are not "current".
  const scrollingTo = useRef<number | null>(null);

  const goTo = useCallback(
    (index: number) => {
      const next = wrapIndex(index, articles.length);
      const slide = track.current?.children[next] as HTMLElement | undefined;
      scrollingTo.current = next === current ? null : next;
      track.current?.scrollTo({ left: slide?.offsetLeft ?? 0, behavior: "smooth" });
      setCurrent(next);
    },
    [articles.length, current],
  );

  // Follow the strip when the reader swipes or scrolls it by hand.
  useEffect(() => {
    const element = track.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          const index = Array.prototype.indexOf.call(element.children, entry.target);
          if (scrollingTo.current !== null && index !== scrollingTo.current) continue;
          scrollingTo.current = null;
          setCurrent(index);
        }
      },
      { root: element, threshold: 0.6 },
    );
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [articles]);

  if (articles.length === 0) return null;
  const active = articles[current];

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Featured stories"
      className="relative mb-8"
    >
      <ul
        ref={track}
        className="flex snap-x snap-mandatory gap-2 overflow-x-auto scroll-smooth rounded-lg [scrollbar-width:thin]"
      >
        {articles.map((article, index) => (
          <li
            key={article.id}
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${articles.length}`}
            className={`relative shrink-0 snap-start ${index < articles.length - 1 ? SLIDE_WIDTH : "w-full"}`}
          >
            <SlideContent
              article={article}
              first={index === 0}
              last={index === articles.length - 1}
            />
          </li>
        ))}
      </ul>
      {hydrated && articles.length > 1 ? (
        <>
          {/* Over the pictures' band on small screens, the whole slide's height on wide ones. */}
          <div className="pointer-events-none absolute inset-x-0 top-0 flex aspect-video items-center justify-between px-2 md:bottom-0 md:aspect-auto md:px-3">
            <button
              type="button"
              onClick={() => goTo(current - 1)}
              aria-label="Previous story"
              className={ARROW}
            >
              ‹
            </button>
            <button
              type="button"
              onClick={() => goTo(current + 1)}
              aria-label="Next story"
              className={ARROW}
            >
              ›
            </button>
          </div>
          <div className="mt-1 flex justify-center gap-1 md:hidden">
            {articles.map((article, index) => (
              <button
                key={article.id}
                type="button"
                onClick={() => goTo(index)}
                aria-label={`Go to story ${index + 1}`}
                aria-current={index === current ? "true" : undefined}
                className="flex h-6 w-6 items-center justify-center"
              >
                <span
                  aria-hidden="true"
                  className={`block h-2.5 w-2.5 rounded-full ${index === current ? "bg-brand" : "bg-slate-400"}`}
                />
              </button>
            ))}
          </div>
          <p aria-live="polite" className="sr-only">
            {active ? `Story ${current + 1} of ${articles.length}: ${active.title}` : ""}
          </p>
        </>
      ) : null}
    </section>
  );
}

/** A slide's picture and text. */
function SlideContent({
  article,
  first,
  last,
}: {
  article: Article;
  first: boolean;
  last: boolean;
}) {
  return (
    <div className="flex h-full flex-col bg-slate-900 md:relative md:block md:h-auto">
      <div className="relative aspect-video w-full bg-slate-800 md:aspect-[21/9] md:max-h-[28rem]">
        <ArticleImage
          picture={article.picture}
          alt={article.title}
          slot={last ? PICTURE_SLOTS.sliderLast : PICTURE_SLOTS.slider}
          load={first ? "priority" : "lazy"}
          width={1200}
          height={675}
          className="absolute inset-0 h-full w-full object-cover"
        />
        <div className="absolute inset-0 hidden bg-gradient-to-t from-black/85 via-black/40 to-transparent md:block" />
      </div>
      <div className="flex flex-1 flex-col items-start p-4 text-white md:absolute md:inset-x-0 md:bottom-0 md:px-20 md:py-8">
        <span className="rounded bg-brand px-2 py-1 text-xs font-semibold">
          {categoryByKey(article.category).label}
        </span>
        {article.own ? (
          <span className="mt-2 text-xs font-semibold tracking-wide uppercase">
            {OWN_STORY_LABEL}
          </span>
        ) : null}
        <h2 className="mt-2 text-xl leading-tight font-bold md:text-3xl">{article.title}</h2>
        <p className="mt-2 line-clamp-3 max-w-3xl text-sm text-slate-100 md:line-clamp-2 md:text-base">
          {article.excerpt}
        </p>
        {article.alsoCoveredBy ? (
          <p className="mt-1 text-xs text-slate-100">{alsoCoveredByLine(article.alsoCoveredBy)}</p>
        ) : null}
        {/* At the foot of every slide on small screens, whatever its text's length. */}
        <div className="mt-auto pt-3">
          <Link
            to={`/article/${article.id}`}
            className="inline-block rounded bg-white px-3 py-1.5 text-sm font-semibold text-slate-900"
          >
            Read More<span className="sr-only">: {article.title}</span>
          </Link>
        </div>
      </div>
    </div>
  );
}
