import { sanDiegoFormat } from "../../shared/san-diego-time";

const longDate = sanDiegoFormat({ year: "numeric", month: "long", day: "numeric" });

/**
 * Dates as pages pass them (ISO strings), formatted once on the server, where every uncached page
 * formats its articles' dates again: Intl formatting is slow next to a lookup. A browser formats a
 * page's dates once, and its bundle goes without.
 */
const formatted = import.meta.env.SSR ? new Map<string, string>() : null;
const FORMATTED_KEPT = 4096;

/** "November 22, 2026", in San Diego's time zone whatever the server's. */
export function formatLongDate(value: Date | string): string {
  if (formatted && typeof value === "string") {
    let text = formatted.get(value);
    if (text === undefined) {
      text = longDate.format(new Date(value));
      if (formatted.size >= FORMATTED_KEPT) formatted.clear();
      formatted.set(value, text);
    }
    return text;
  }
  return longDate.format(typeof value === "string" ? new Date(value) : value);
}

const yearOnly = sanDiegoFormat({ year: "numeric" });

/**
 * The year last worked out and the hour (in UTC) it was for. San Diego's year turns at its midnight,
 * which falls on the hour in UTC (its offsets are whole hours): within one hour it is one year, and
 * every page's footer asks for it, which would otherwise be an Intl formatting per page.
 */
let lastYear = { hour: Number.NaN, year: 0 };

/**
 * The year in San Diego at `when`: the same on the server and in every reader's browser, so a page
 * rendered on New Year's Eve evening (already January in UTC) hydrates without a mismatch.
 */
export function sanDiegoYear(when: Date = new Date()): number {
  const hour = Math.floor(when.getTime() / 3_600_000);
  if (hour !== lastYear.hour) lastYear = { hour, year: Number(yearOnly.format(when)) };
  return lastYear.year;
}
