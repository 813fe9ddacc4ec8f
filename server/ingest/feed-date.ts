/**
 * Feed dates as feeds write them: RFC 822/2822 and its variants, ISO 8601 / W3C-DTF, and a few other
 * shapes seen in the wild. No library reads all of these alike (Date.parse's reading of non-ISO text is
 * implementation-defined).
 */

const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

const MONTHS: Record<string, number> = {
  jan: 1,
  ene: 1,
  gen: 1,
  feb: 2,
  fev: 2,
  mar: 3,
  mrz: 3,
  apr: 4,
  abr: 4,
  avr: 4,
  may: 5,
  mai: 5,
  mag: 5,
  jun: 6,
  giu: 6,
  juin: 6,
  jul: 7,
  lug: 7,
  juil: 7,
  aug: 8,
  ago: 8,
  aou: 8,
  sep: 9,
  set: 9,
  oct: 10,
  out: 10,
  ott: 10,
  okt: 10,
  nov: 11,
  dec: 12,
  dez: 12,
  dic: 12,
};

function monthNumber(word: string): number | null {
  const plain = word
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (plain.length < 3) return null;
  return MONTHS[plain.slice(0, 4)] ?? MONTHS[plain.slice(0, 3)] ?? null;
}

// Offsets in minutes east of UTC. RFC 822 names, then the abbreviations feeds commonly use; those
// at UTC (UT, UTC, GMT, Z, WET) read as any name not listed does (zoneOffset).
const ZONES: Record<string, number> = {
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  IST: 330,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
  ACST: 570,
  AWST: 480,
  NZST: 720,
  NZDT: 780,
};

/** Minutes east of UTC for a zone as written, or null when it is not a zone. Unknown names count as UTC. */
function zoneOffset(zone: string | undefined): number | null {
  if (zone === undefined || zone === "") return 0;
  const numeric = /^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?$/i.exec(zone);
  if (numeric) {
    const sign = numeric[1] === "-" ? -1 : 1;
    const hours = Number(numeric[2]);
    const minutes = Number(numeric[3] ?? "0");
    if (hours > 23 || minutes > 59) return null;
    return sign * (hours * 60 + minutes);
  }
  const name = zone.toUpperCase();
  if (!/^[A-Z]{1,5}$/.test(name)) return null;
  // Single-letter military zones were so often written wrongly that RFC 2822 reads them as UTC.
  return ZONES[name] ?? 0;
}

function fullYear(year: string): number {
  const value = Number(year);
  if (year.length === 2) return value < 50 ? 2000 + value : 1900 + value;
  if (year.length === 3) return 1900 + value;
  return value;
}

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  offset: number;
}

function toDate(parts: DateParts): Date | null {
  const { year, month, day, hour = 0, minute = 0, millisecond = 0, offset } = parts;
  const second = Math.min(parts.second ?? 0, 59);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const check = new Date(utc);
  // Date.UTC maps years 0-99 to 1900-1999 and rolls 31 April over to 1 May; neither is a real date.
  if (check.getUTCFullYear() !== year || check.getUTCDate() !== day) return null;
  return new Date(utc - offset * 60_000);
}

const ISO =
  /^(\d{4})(?:-?(\d{2})(?:-?(\d{2})(?:[T\s](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const SLASHED =
  /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(\S+)?$/;
const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?(?:\s*([AaPp])\.?[Mm]\.?)?`;
const ZONE = String.raw`(?:\s*\(?([A-Za-z]{1,5}|(?:GMT|UTC)?[+-]\d{1,2}:?\d{2})\)?)?`;
// "05 Apr 2022 06:27:00 GMT", "6-Nov-94 08:49:37 GMT", "12 August 2012 10:00:00 EST"
const DAY_MONTH_YEAR = new RegExp(
  String.raw`^(\d{1,2})[\s-]+([^\d\s,.-]+)\.?[\s,-]+(\d{2,4})(?:[\s,T]+${TIME})?${ZONE}$`,
);
// "Dec 16 2023 02:02:33 PM", "Dec 16, 2023"
const MONTH_DAY_YEAR = new RegExp(
  String.raw`^([^\d\s,.-]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:[\s,T]+${TIME})?${ZONE}$`,
);
// asctime: "Nov 6 08:49:37 1994"
const ASCTIME = new RegExp(String.raw`^([^\d\s,.-]+)\s+(\d{1,2})\s+${TIME}\s+(\d{4})${ZONE}$`);

function clockHour(hour: string | undefined, meridiem: string | undefined): number {
  const value = Number(hour ?? "0");
  if (meridiem === undefined) return value;
  if (value < 1 || value > 12) return 99;
  const pm = meridiem.toLowerCase() === "p";
  return (value % 12) + (pm ? 12 : 0);
}

/** A leading day name ("Tue,", "Tuesday,", "Seg,", "mer,", asctime's "Sun") says nothing the date does not. */
function withoutDayName(text: string): string {
  const withComma = /^[^\d\s,]+\.?,\s*/.exec(text);
  if (withComma) return text.slice(withComma[0].length);
  const bare = /^([^\d\s,]+)\s+(?=[^\d\s,]+\.?\s+\d)/.exec(text);
  if (bare?.[1] !== undefined && monthNumber(bare[1]) === null) return text.slice(bare[0].length);
  return text;
}

function parseIso(text: string): Date | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const offset = zoneOffset(m[8]);
  if (offset === null) return null;
  return toDate({
    year: Number(m[1]),
    month: Number(m[2] ?? "1"),
    day: Number(m[3] ?? "1"),
    hour: Number(m[4] ?? "0"),
    minute: Number(m[5] ?? "0"),
    second: Number(m[6] ?? "0"),
    millisecond: Number((m[7] ?? "0").slice(0, 3).padEnd(3, "0")),
    offset,
  });
}

function parseWritten(text: string): Date | null {
  const slashed = SLASHED.exec(text);
  if (slashed) {
    const offset = zoneOffset(slashed[7]);
    if (offset === null) return null;
    return toDate({
      year: Number(slashed[1]),
      month: Number(slashed[2]),
      day: Number(slashed[3]),
      hour: Number(slashed[4] ?? "0"),
      minute: Number(slashed[5] ?? "0"),
      second: Number(slashed[6] ?? "0"),
      offset,
    });
  }
  const body = withoutDayName(text);
  const dmy = DAY_MONTH_YEAR.exec(body);
  const mdy = dmy ? null : MONTH_DAY_YEAR.exec(body);
  const asc = dmy || mdy ? null : ASCTIME.exec(body);
  let day: string | undefined;
  let month: string | undefined;
  let year: string | undefined;
  let time: (string | undefined)[];
  if (dmy) {
    [, day, month, year, ...time] = dmy;
  } else if (mdy) {
    [, month, day, year, ...time] = mdy;
  } else if (asc) {
    const [, m, d, h, min, s, meridiem, y, zone] = asc;
    [month, day, year, time] = [m, d, y, [h, min, s, meridiem, zone]];
  } else {
    return null;
  }
  const monthValue = monthNumber(month ?? "");
  const [hour, minute, second, meridiem, zone] = time;
  const offset = zoneOffset(zone);
  if (monthValue === null || offset === null || year === undefined) return null;
  return toDate({
    year: fullYear(year),
    month: monthValue,
    day: Number(day),
    hour: clockHour(hour, meridiem),
    minute: Number(minute ?? "0"),
    second: Number(second ?? "0"),
    offset,
  });
}

/**
 * Parses a feed date: RFC 822/2822 (named zones, obsolete forms, 2-digit years, no seconds, day and
 * month names in a few European languages), ISO 8601 / W3C-DTF (with or without zone, date only) and a
 * few other shapes seen in the wild. A date without a zone is read as UTC. Returns null when the text is
 * not a date or lies more than 24 hours after `now`.
 */
export function parseFeedDate(value: string, now: Date = new Date()): Date | null {
  const text = value.replace(/\s+/g, " ").trim();
  if (text === "") return null;
  const date = parseIso(text) ?? parseWritten(text);
  if (date === null || Number.isNaN(date.getTime())) return null;
  if (date.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) return null;
  return date;
}
