import { slotsAt, sponsorsAt, listAdAfter, type AdPosition, type PageKind } from "../lib/ad-plan";
import { AdSlot } from "./AdSlot";
import { SponsorAd } from "./SponsorAd";

interface Props {
  kind: PageKind;
  at: Exclude<AdPosition, "list">;
  /** Classes of each slot and sponsor card, such as their margins. */
  className?: string;
}

/**
 * What the ad plan puts at one position of a page of this kind: its slots, then its sponsor cards,
 * with no wrapper, so a slot hidden on small screens leaves no gap in a column.
 */
export function PageAds({ kind, at, className }: Props) {
  return (
    <>
      {slotsAt(kind, at).map((planned) => (
        <AdSlot
          key={planned.slot}
          slot={planned.slot}
          size={planned.size}
          kind={kind}
          onSmallScreens={planned.small}
          className={className}
        />
      ))}
      {sponsorsAt(kind, at).map((type) => (
        <SponsorAd key={type} type={type} className={className} />
      ))}
    </>
  );
}

/**
 * The list item the ad plan puts after the story at `index` of `shown`, spanning the row, or
 * nothing. An item shown only on large screens is hidden whole, so the list's gaps stay even.
 */
export function ListAd({ kind, index, shown }: { kind: PageKind; index: number; shown: number }) {
  const unit = listAdAfter(kind, index, shown);
  if (!unit) return null;
  // Its place among the units of its slot before it: each shows another house ad.
  let occurrence = 0;
  for (let i = 0; i < index; i++) if (listAdAfter(kind, i, shown)?.slot === unit.slot) occurrence++;
  return (
    <li className={`col-span-full ${unit.small ? "" : "hidden md:block"}`}>
      <AdSlot slot={unit.slot} size={unit.size} kind={kind} occurrence={occurrence} />
    </li>
  );
}
