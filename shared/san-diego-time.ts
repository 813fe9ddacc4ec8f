/**
 * Dates and times as staff type and read them: San Diego's wall clock, in the `YYYY-MM-DDTHH:mm`
 * form an `<input type="datetime-local">` uses, whatever the server's own time zone.
 */

export const SAN_DIEGO_ZONE = "America/Los_Angeles";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: SAN_DIEGO_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** San Diego's wall clock at `instant`, as its fields. */
function wallClock(instant: Date) {
  const field = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.formatToParts(instant).find((p) => p.type === type)?.value ?? 0);
  return {
    year: field("year"),
    month: field("month"),
    day: field("day"),
    hour: field("hour"),
    minute: field("minute"),
    second: field("second"),
  };
}

/** How far San Diego's clock is ahead of UTC at `instant`, in ms (negative: behind). */
function offsetAt(instant: Date): number {
  const w = wallClock(instant);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant San Diego's clock shows `local` (`YYYY-MM-DDTHH:mm`), or null when it is not such a
 * date and time. A time the clock skips when summer time starts is read as the hour after.
 */
export function sanDiegoLocalToDate(local: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // Not a real day (say 31 February): Date.UTC rolls it over, which the reader did not mean.
  if (new Date(asUtc).getUTCDate() !== day) return null;
  // The offset at the guess, then again at the result, settles on either side of a change; a
  // time in the skipped hour keeps the first answer, which the clock shows an hour later.
  const first = new Date(asUtc - offsetAt(new Date(asUtc)));
  const second = new Date(asUtc - offsetAt(first));
  return dateToSanDiegoLocal(second) === local.trim() ? second : first;
}

/** `instant` on San Diego's clock, as `YYYY-MM-DDTHH:mm` (for a datetime-local field's value). */
export function dateToSanDiegoLocal(instant: Date): string {
  const w = wallClock(instant);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}
