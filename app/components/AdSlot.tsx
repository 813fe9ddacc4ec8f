import { useEffect, useRef } from "react";
import { Link, useLocation, useRouteLoaderData } from "react-router";
import type { HouseAd, HouseAds } from "../../server/content/load";
import {
  AD_MIN_HEIGHT,
  AD_SLOT_NAMES,
  AD_SLOTS,
  adScriptSrc,
  type AdSize,
  type AdSlotName,
} from "../lib/ads";
import { useEmbeds } from "../lib/embeds";
import type { loader as rootLoader } from "../root";

interface Props {
  slot: AdSlotName;
  size: AdSize;
  /** False hides the slot below 768 px, where the spec shows fewer ads; chosen by CSS so nothing jumps. */
  onSmallScreens?: boolean;
  className?: string;
}

/**
 * A banner slot. Its height is reserved before anything loads; the provider's script goes into it only
 * when it comes near the viewport. With no provider configured it shows the slot's house ad
 * (content/house-ads.yaml), in the same reserved space.
 */
export function AdSlot({ slot, size, onSmallScreens = true, className = "" }: Props) {
  const { adScriptUrl } = useEmbeds();
  const ads = useRouteLoaderData<typeof rootLoader>("root")?.ads;
  const container = useRef<HTMLDivElement>(null);
  const id = AD_SLOTS[slot];

  useEffect(() => {
    const element = container.current;
    if (!adScriptUrl || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        const script = document.createElement("script");
        script.src = adScriptSrc(adScriptUrl, id);
        script.async = true;
        element.appendChild(script);
      },
      { rootMargin: "300px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [adScriptUrl, id]);

  const shown = onSmallScreens ? "flex" : "hidden md:flex";
  const style = { minHeight: AD_MIN_HEIGHT[size] };
  const { pathname } = useLocation();
  const houseAds = ads?.houseAds;
  const house = houseAds ? houseAdFor(houseAds, slot, pathname) : undefined;
  if (adScriptUrl || !houseAds || !house) {
    return (
      <aside
        aria-label="Advertisement"
        data-ad-slot={id}
        className={`${shown} w-full flex-col items-center justify-center rounded border border-dashed border-slate-300 bg-slate-100 text-xs tracking-wide text-slate-600 uppercase ${className}`}
        style={style}
      >
        <div ref={container} className="flex w-full justify-center" />
        {adScriptUrl ? null : <span>Advertisement</span>}
      </aside>
    );
  }
  return (
    <aside
      aria-label="Advertisement"
      data-ad-slot={id}
      data-house-ad={house}
      className={`${shown} @container w-full ${className}`}
      style={style}
    >
      <HouseAdCard ad={houseAds[house]} from={houseAds.from} size={size} />
    </aside>
  );
}

/**
 * The name of the house ad a slot shows: its own, or, on the page that one promotes, the first of the
 * others that leads elsewhere.
 */
export function houseAdFor(ads: HouseAds, slot: AdSlotName, pathname: string): AdSlotName {
  if (ads[slot].href !== pathname) return slot;
  return AD_SLOT_NAMES.find((name) => ads[name].href !== pathname) ?? slot;
}

/**
 * Layout of the house ad for each size, by the slot's own width (a container query): a wide banner
 * reads in a row once it has the room, a box and a tower in a column.
 */
const LAYOUT: Record<AdSize, { card: string; headline: string }> = {
  banner: {
    card: "@2xl:grid-cols-[minmax(0,1fr)_auto] @2xl:items-center @2xl:gap-x-10 @2xl:px-10",
    headline: "text-2xl @2xl:text-3xl",
  },
  box: { card: "", headline: "text-2xl" },
  tower: { card: "content-center", headline: "text-3xl" },
};

/** The publication's own ad: labelled as an advertisement, then who it is from, the offer and its link. */
function HouseAdCard({ ad, from, size }: { ad: HouseAd; from: string; size: AdSize }) {
  const layout = LAYOUT[size];
  return (
    <div
      className={`grid w-full content-center gap-y-4 rounded-lg bg-brand-dark px-6 py-6 text-white ${layout.card}`}
    >
      <div>
        <p className="flex flex-wrap items-baseline gap-x-3 text-xs font-semibold tracking-wide uppercase">
          <span className="rounded-sm bg-white px-1.5 py-0.5 text-brand-dark">Advertisement</span>
          <span className="text-sky-100">{from}</span>
        </p>
        <p className={`mt-3 leading-tight font-bold ${layout.headline}`}>{ad.headline}</p>
        <p className="mt-2 text-sky-50">{ad.text}</p>
      </div>
      <Link
        to={ad.href}
        className="justify-self-start rounded bg-white px-5 py-2.5 font-semibold text-brand-dark hover:bg-sky-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        {ad.cta}
        <span className="sr-only">: {ad.headline}</span>
      </Link>
    </div>
  );
}
