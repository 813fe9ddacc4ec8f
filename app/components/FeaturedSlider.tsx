import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { Article } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import { useHydrated } from "../lib/use-hydrated";
import { ArticleImage } from "./ArticleImage";
import { PICTURE_SLOTS } from "./picture-slots";

/** The index before or after `index`, wrapping around at both ends. */
export function wrapIndex(index: number, count: number): number {
  return count === 0 ? 0 : ((index % count) + count) % count;
}

/**
 * The featured stories. Without JavaScript it is a horizontally scrollable strip (scroll-snap);
 * with it, previous/next buttons wrap at both ends, dots jump to a slide on small screens, and the
 * slide change is announced politely.
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
        className="flex snap-x snap-mandatory overflow-x-auto scroll-smooth rounded-lg [scrollbar-width:thin]"
      >
        {articles.map((article, index) => (
          <li
            key={article.id}
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${articles.length}`}
            className="relative w-full shrink-0 snap-start"
          >
            <SlideContent article={article} first={index === 0} />
          </li>
        ))}
      </ul>
      {hydrated && articles.length > 1 ? (
        <>
          <button
            type="button"
            onClick={() => goTo(current - 1)}
            aria-label="Previous story"
            className="absolute top-3 left-3 rounded-full md:top-1/2 md:-translate-y-1/2 bg-white/90 px-3 py-2 text-xl font-bold text-slate-900 shadow"
          >
            ‹
          </button>
          <button
            type="button"
            onClick={() => goTo(current + 1)}
            aria-label="Next story"
            className="absolute top-3 right-3 rounded-full md:top-1/2 md:-translate-y-1/2 bg-white/90 px-3 py-2 text-xl font-bold text-slate-900 shadow"
          >
            ›
          </button>
          <div className="absolute inset-x-0 bottom-2 flex justify-center gap-1 md:hidden">
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
                  className={`block h-2.5 w-2.5 rounded-full ${index === current ? "bg-white" : "bg-white/50"}`}
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
function SlideContent({ article, first }: { article: Article; first: boolean }) {
  return (
    <div className="relative aspect-[4/3] max-h-[28rem] w-full bg-slate-800 sm:aspect-[16/9] md:aspect-[21/9]">
      <ArticleImage
        picture={article.picture}
        alt={article.title}
        slot={PICTURE_SLOTS.slider}
        load={first ? "priority" : "lazy"}
        width={1200}
        height={675}
        className="absolute inset-0 h-full w-full object-cover"
      />
      <div className="absolute inset-0 bg-gradient-to-t from-black/85 via-black/40 to-transparent" />
      <div className="absolute inset-x-0 bottom-0 p-4 pb-10 text-white md:px-16 md:py-8 md:pb-12">
        <span className="rounded bg-brand px-2 py-1 text-xs font-semibold">
          {categoryByKey(article.category).label}
        </span>
        <h2 className="mt-2 text-xl leading-tight font-bold md:text-3xl">{article.title}</h2>
        <p className="mt-2 line-clamp-2 hidden max-w-3xl text-sm text-slate-100 sm:block md:text-base">
          {article.excerpt}
        </p>
        <Link
          to={`/article/${article.id}`}
          className="mt-3 inline-block rounded bg-white px-3 py-1.5 text-sm font-semibold text-slate-900"
        >
          Read More<span className="sr-only">: {article.title}</span>
        </Link>
      </div>
    </div>
  );
}
