import { useEffect, useRef } from "react";
import { AD_MIN_HEIGHT, adScriptSrc, type AdSize } from "../lib/ads";
import { useEmbeds } from "../lib/embeds";

interface Props {
  slot: string;
  size: AdSize;
  /** False hides the slot below 768 px, where the spec shows fewer ads; chosen by CSS so nothing jumps. */
  onSmallScreens?: boolean;
  className?: string;
}

/**
 * A banner slot. Its height is reserved before anything loads; the provider's script goes into it only
 * when it comes near the viewport. With no provider configured it stays a labelled placeholder.
 */
export function AdSlot({ slot, size, onSmallScreens = true, className = "" }: Props) {
  const { adScriptUrl } = useEmbeds();
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!adScriptUrl || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        const script = document.createElement("script");
        script.src = adScriptSrc(adScriptUrl, slot);
        script.async = true;
        element.appendChild(script);
      },
      { rootMargin: "300px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [adScriptUrl, slot]);

  return (
    <aside
      aria-label="Advertisement"
      data-ad-slot={slot}
      className={`${onSmallScreens ? "flex" : "hidden md:flex"} w-full flex-col items-center justify-center rounded border border-dashed border-slate-300 bg-slate-100 text-xs tracking-wide text-slate-600 uppercase ${className}`}
      style={{ minHeight: AD_MIN_HEIGHT[size] }}
    >
      <div ref={container} className="flex w-full justify-center" />
      {adScriptUrl ? null : <span>Advertisement</span>}
    </aside>
  );
}
