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

/** The publication's own ad (its look is in app.css): labelled as an advertisement, who it is from, the offer, its link. */
function HouseAdCard({ ad, from, size }: { ad: HouseAd; from: string; size: AdSize }) {
  return (
    <div className="house-ad" data-size={size}>
      <div>
        <p className="house-ad-label">
          <span>Advertisement</span>
          <span>{from}</span>
        </p>
        <p className="house-ad-headline">{ad.headline}</p>
        <p className="house-ad-text">{ad.text}</p>
      </div>
      <Link to={ad.href} className="house-ad-cta">
        {ad.cta}
        <span className="sr-only">: {ad.headline}</span>
      </Link>
    </div>
  );
}
