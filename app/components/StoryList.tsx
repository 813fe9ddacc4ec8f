import { Fragment, useEffect, useRef, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import type { Article } from "../../shared/article";
import type { PageKind } from "../lib/ad-plan";
import { RENDERED_WHEN_NEAR } from "../lib/rendered-when-near";
import { ArticleCard } from "./ArticleCard";
import type { PictureSlot } from "./picture-slots";
import { ListAd } from "./PageAds";

/** The spec's collapsed size; See All appears when at least this many stories are loaded. */
const COLLAPSED_COUNT = 5;

/** The search parameter of the expanded state: `?all=1`. */
const SHOW_ALL = "all";

export function isShowingAll(search: string): boolean {
  return new URLSearchParams(search).get(SHOW_ALL) === "1";
}

/** Search string of the other state, every other parameter kept. */
export function toggledSearch(search: string, expand: boolean): string {
  const params = new URLSearchParams(search);
  if (expand) params.set(SHOW_ALL, "1");
  else params.delete(SHOW_ALL);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** True when two addresses differ in nothing but the toggle, so the loader's data still holds. */
export function onlyToggleChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  return toggledSearch(current.search, false) === toggledSearch(next.search, false);
}

export type CardLoad = "priority" | "lazy";

/** The first card may be the page's largest picture; the others load when near the screen. */
function cardLoad(index: number, firstIsLargest: boolean): CardLoad {
  return index === 0 && firstIsLargest ? "priority" : "lazy";
}

interface Props {
  articles: readonly Article[];
  /** Prefix of the ids of the items, which the toggle's links jump to. */
  id: string;
  /**
   * A heading for the list, read by assistive technology, for pages where nothing visible heads it
   * (the cards' titles are h3 and must not follow the page's h1 directly).
   */
  heading?: string;
  /** "See All ..." of the registry, or null to list every story with no toggle. */
  toggleLabel: string | null;
  listClassName: string;
  /** Said instead of an empty list. */
  empty: string;
  /** Where the list's classes draw a card's picture (picture-slots.ts). */
  cardSlot: PictureSlot;
  /** Whether the first card's picture is the page's largest (LCP): it is then preloaded. */
  firstIsLargest?: boolean;
  /** A card of the page's own (loading its picture as `load` says); ArticleCard by default. */
  renderItem?: (article: Article, load: CardLoad) => ReactNode;
  /** The page's kind in the ad plan, whose units go between the stories. */
  ads: PageKind;
}

/**
 * A list of stories with the spec's 5-then-all toggle. The toggle is a link to `?all=1` and back,
 * so it works before and without JavaScript; the loader always sends every story, so with
 * JavaScript the switch is instant (the route's `shouldRevalidate` skips the refetch).
 */
export function StoryList({
  articles,
  id,
  heading,
  toggleLabel,
  listClassName,
  empty,
  cardSlot,
  firstIsLargest = false,
  renderItem = (article, load) => <ArticleCard article={article} slot={cardSlot} load={load} />,
  ads,
}: Props) {
  const location = useLocation();
  const collapsible = toggleLabel !== null && articles.length >= COLLAPSED_COUNT;
  const expanded = collapsible && isShowingAll(location.search);
  const shown = collapsible && !expanded ? articles.slice(0, COLLAPSED_COUNT) : articles;
  const itemId = (index: number) => `${id}-${index + 1}`;
  const toggleId = `${id}-toggle`;
  const firstHidden = articles.length > COLLAPSED_COUNT ? itemId(COLLAPSED_COUNT) : toggleId;

  // Focus follows the reader's action: to the first story revealed, or stays on the toggle.
  const list = useRef<HTMLUListElement>(null);
  const wasExpanded = useRef(expanded);
  useEffect(() => {
    if (wasExpanded.current === expanded) return;
    wasExpanded.current = expanded;
    if (expanded) {
      list.current
        ?.querySelector<HTMLElement>(`#${CSS.escape(firstHidden)} a`)
        ?.focus({ preventScroll: true });
    }
  }, [expanded, firstHidden]);

  if (articles.length === 0) return <p className="text-slate-700">{empty}</p>;
  return (
    <>
      {heading ? <h2 className="sr-only">{heading}</h2> : null}
      <ul ref={list} className={listClassName}>
        {shown.map((article, index) => (
          <Fragment key={article.id}>
            {/* The first card is drawn at once: it may be the page's largest picture. */}
            <li
              id={itemId(index)}
              className={`flex scroll-mt-4 ${index === 0 ? "" : RENDERED_WHEN_NEAR}`}
            >
              {renderItem(article, cardLoad(index, firstIsLargest))}
            </li>
            <ListAd kind={ads} index={index} shown={shown.length} />
          </Fragment>
        ))}
      </ul>
      {collapsible ? (
        <p className="mt-8 text-center">
          <Link
            id={toggleId}
            to={{
              pathname: location.pathname,
              search: toggledSearch(location.search, !expanded),
              hash: expanded ? toggleId : firstHidden,
            }}
            preventScrollReset
            className="inline-block scroll-mt-4 rounded bg-brand px-6 py-3 font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand"
          >
            {expanded ? "Show Less" : toggleLabel}
          </Link>
        </p>
      ) : null}
    </>
  );
}
