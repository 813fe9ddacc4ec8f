/**
 * San Diego's time, the site's one time zone: dates on pages, in the newsletter and the newsroom
 * are San Diego's whatever the server's or the reader's zone. Staff type and read times in the
 * `YYYY-MM-DDTHH:mm` form an `<input type="datetime-local">` uses.
 */

export const SAN_DIEGO_ZONE = "America/Los_Angeles";

/** Formats dates and times in US English on San Diego's clock. */
export function sanDiegoFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-US", { ...options, timeZone: SAN_DIEGO_ZONE });
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const parts = sanDiegoFormat({
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
  const fields = parts.formatToParts(instant);
  const field = (type: Intl.DateTimeFormatPartTypes) =>
    Number(fields.find((p) => p.type === type)?.value ?? 0);
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
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0] = m.slice(1).map(Number);
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

/** San Diego's date at `instant`, `2026-12-01`. */
export function sanDiegoDate(instant: Date): string {
  return dateToSanDiegoLocal(instant).slice(0, 10);
}

/** San Diego's wall-clock time at `instant`, in minutes since midnight. */
export function sanDiegoMinutes(instant: Date): number {
  const w = wallClock(instant);
  return w.hour * 60 + w.minute;
}
