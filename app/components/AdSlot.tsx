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
} from "../../shared/ads";
import { AD_PLAN, type PageKind } from "../lib/ad-plan";
import { useEmbeds } from "../lib/embeds";
import type { loader as rootLoader } from "../root";

interface Props {
  slot: AdSlotName;
  size: AdSize;
  /** The page's kind in the ad plan: its other slots show other house ads. */
  kind: PageKind;
  /** Which of the page's units of this slot it is, from 0, for a unit repeated in a list. */
  occurrence?: number;
  /** False hides the slot below 768 px, where the spec shows fewer ads; chosen by CSS so nothing jumps. */
  onSmallScreens?: boolean;
  className?: string;
}

/**
 * A banner slot. Its height is reserved before anything loads; the provider's script goes into it only
 * when it comes near the viewport. With no provider configured it shows the slot's house ad
 * (content/house-ads.yaml), in the same reserved space.
 */
export function AdSlot({
  slot,
  size,
  kind,
  occurrence = 0,
  onSmallScreens = true,
  className = "",
}: Props) {
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
  const house = houseAds ? houseAdFor(houseAds, kind, slot, occurrence, pathname) : undefined;
  if (adScriptUrl || !houseAds || !house) {
    return (
      <aside
        aria-label="Advertisement"
        data-ad-slot={id}
        className={`${shown} ad-slot-empty ${className}`}
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
 * The house ad a slot shows on a page of this kind: its own, unless that one promotes the page;
 * then, and for the further copies of a unit repeated in a list, the ads no slot of the page's plan
 * has, in turn. So a page's slots show different ads while there are enough, the same at every
 * render (a cached page and a fresh one agree).
 */
export function houseAdFor(
  ads: HouseAds,
  kind: PageKind,
  slot: AdSlotName,
  occurrence: number,
  pathname: string,
): AdSlotName {
  const planned = AD_PLAN[kind].slots.map((p) => p.slot);
  const order = [slot, ...AD_SLOT_NAMES.filter((name) => !planned.includes(name))].filter(
    (name) => ads[name].href !== pathname,
  );
  return order[occurrence % order.length] ?? slot;
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
