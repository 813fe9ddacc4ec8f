import { useRouteLoaderData } from "react-router";
import type { SponsorType } from "../../shared/ads";
import type { loader as rootLoader } from "../root";

/** A sponsor's text ad (content/sponsors.yaml), as the ad plan places it; its look is in app.css. */
export function SponsorAd({ type, className = "" }: { type: SponsorType; className?: string }) {
  const sponsor = useRouteLoaderData<typeof rootLoader>("root")?.ads.sponsors[type];
  if (!sponsor) return null;
  return (
    <aside
      aria-label={`${sponsor.label}: ${sponsor.headline}`}
      data-sponsor={type}
      className={`sponsor-ad ${className}`}
    >
      <p className="sponsor-ad-label">{sponsor.label}</p>
      <p className="mt-1 font-bold">{sponsor.headline}</p>
      <p className="sponsor-ad-text">{sponsor.text}</p>
      <a
        href={sponsor.url}
        target="_blank"
        rel="noopener noreferrer sponsored"
        className="sponsor-ad-cta"
      >
        {sponsor.cta}
        <span className="sr-only">: {sponsor.headline}</span>
      </a>
    </aside>
  );
}
