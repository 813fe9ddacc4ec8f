import { useRouteLoaderData } from "react-router";
import type { SponsorType } from "../lib/ads";
import type { loader as rootLoader } from "../root";

/** A sponsor's text ad (content/sponsors.yaml), as the ad plan places it. */
export function SponsorAd({ type }: { type: SponsorType }) {
  const sponsor = useRouteLoaderData<typeof rootLoader>("root")?.ads.sponsors[type];
  if (!sponsor) return null;
  return (
    <aside
      aria-label={`${sponsor.label}: ${sponsor.headline}`}
      data-sponsor={type}
      className="rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200"
    >
      <p className="text-xs font-semibold tracking-wide text-amber-900 uppercase">
        {sponsor.label}
      </p>
      <p className="mt-1 font-bold">{sponsor.headline}</p>
      <p className="mt-1 text-sm text-slate-700">{sponsor.text}</p>
      <a
        href={sponsor.url}
        target="_blank"
        rel="noopener noreferrer sponsored"
        className="mt-2 inline-block text-sm font-semibold text-brand underline"
      >
        {sponsor.cta}
        <span className="sr-only">: {sponsor.headline}</span>
      </a>
    </aside>
  );
}
