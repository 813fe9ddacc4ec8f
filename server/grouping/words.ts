import { TRANSLITERATION } from "../lib/text";

/**
 * The words, names and numbers a headline or an opening is compared by (decision 029): folded as
 * `unaccent(lower(...))` folds them, without stop words, peoples read as their countries.
 */

// English and Spanish function words, and words every headline uses. Whole words, after normalising.
const STOP_WORDS = new Set(
  (
    "a about above after again against all also am amid an and any are aren as at be because been before " +
    "being below between both but by can cannot could couldn did didn do does doesn doing don down during " +
    "each few for from further had hadn has hasn have haven having he her here hers herself him himself his " +
    "how i if in into is isn it its itself just let ll me more most mustn my myself no nor not now of off " +
    "on once only or other our ours ourselves out over own re s same she should shouldn so some such t than " +
    "that the their theirs them themselves then there these they this those through to too under until up " +
    "us ve very was wasn we were weren what when where which while who whom why will with won would " +
    "wouldn you your yours yourself yourselves " +
    // Headline words that say nothing about the event.
    "says said say new news latest live update updates report reports reportedly watch video here " +
    "get gets got may might first second third last next one two three year years day days week today " +
    "tonight story stories part " +
    // Newsletter and programme labels: "Tuesday evening news briefing: ...".
    "briefing briefings morning afternoon evening podcast newsletter " +
    // Spanish.
    "el la los las un una unos unas de del al y o en por para con sin sobre que se su sus es son lo como " +
    "mas pero le les ya este esta estos estas ese esa"
  ).split(" "),
);

/** Lower case without accents: what `unaccent(lower(text))` gives for Latin text. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßæœøđłþ]/g, (c) => TRANSLITERATION[c] ?? c)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "");
}

/** The words of a text as pg_trgm splits them: runs of letters and digits, folded. */
function trigramWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** pg_trgm's trigrams: each word padded with two spaces before and one after. */
export function trigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of trigramWords(text)) {
    const padded = `  ${word} `;
    const chars = Array.from(padded);
    for (let i = 0; i + 3 <= chars.length; i++) result.add(chars.slice(i, i + 3).join(""));
  }
  return result;
}

/** pg_trgm's `similarity()`: shared trigrams over all trigrams of both. */
export function trigramSimilarity(a: string, b: string): number {
  return setSimilarity(trigrams(a), trigrams(b));
}

export function setSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * A word reduced so spelling variants meet: possessive and plural `s` dropped ("-ies" as "-y":
 * "testifies" and "testify"), doubled letters single ("Zelenskyy" and "Zelensky", "McCleod" and
 * "McLeod", "Skarsgård" and "Skarsgard").
 */
function wordKey(word: string): string {
  let key = foldText(word).replace(/['\u2019]s$/, "");
  if (key.length > 5 && key.endsWith("ies")) key = `${key.slice(0, -3)}y`;
  else if (key.length > 4 && key.endsWith("s") && !key.endsWith("ss")) key = key.slice(0, -1);
  key = COUNTRY_OF.get(key) ?? key;
  return key.replace(/(\p{L})\1+/gu, "$1");
}

/**
 * A people or its adjective as its country ("Russian" and "Russians" as "Russia", "British" as
 * "UK"): reports of one event name the same countries in either form ("Russia wants", "Russian
 * forces"). Keys as wordKey leaves them before doubled letters are made single.
 */
const COUNTRY_OF = new Map(
  (
    "russian:russia ukrainian:ukraine british:uk britain:uk american:usa america:usa german:germany " +
    "french:france chinese:china australian:australia israeli:israel iranian:iran indian:india " +
    "japanese:japan european:europe canadian:canada mexican:mexico spanish:spain italian:italy " +
    "polish:poland turkish:turkey syrian:syria afghan:afghanistan pakistani:pakistan korean:korea " +
    "palestinian:palestine scottish:scotland welsh:wales irish:ireland dutch:netherlands " +
    "swedish:sweden finnish:finland norwegian:norway danish:denmark belgian:belgium swiss:switzerland " +
    "austrian:austria greek:greece brazilian:brazil egyptian:egypt nigerian:nigeria kenyan:kenya " +
    "ethiopian:ethiopia belarusian:belarus hungarian:hungary taiwanese:taiwan"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/** Bodies named in full as by their acronym: "United Nations" as "UN". */
function withShortNames(text: string): string {
  return text
    .replace(/\bUnited Nations\b/gu, "UN")
    .replace(/\bEuropean Union\b/gu, "EU")
    .replace(/\bUnited Kingdom\b/gu, "UK")
    .replace(/\bUnited States\b/gu, "USA");
}

/** "U.N." as "UN", and the country "US" or "U.S." as "USA", which no stop word list drops. */
function withAcronyms(text: string): string {
  return withShortNames(text)
    .replace(/\bU\.?S\.?(?![\p{L}])/gu, "USA")
    .replace(/\b(?:\p{Lu}\.){2,}/gu, (m) => m.replace(/\./g, ""));
}

/** Words that are not stop words, as word keys. Numbers are kept; single letters are not. */
export function significantWords(text: string): Set<string> {
  const plain = withAcronyms(text);
  // An acronym ("UN", "WHO") is a name even when its letters spell a stop word.
  const shouting = plain === plain.toUpperCase();
  const acronyms = new Set(
    shouting ? [] : foldText((plain.match(/\b\p{Lu}{2,}\b/gu) ?? []).join(" ")).split(" "),
  );
  const words = foldText(plain)
    .replace(/['\u2019]s\b/g, "")
    .replace(/['\u2019]/g, "")
    .match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu);
  const result = new Set<string>();
  for (const word of words ?? []) {
    if (STOP_WORDS.has(word) && !acronyms.has(word)) continue;
    if (word.length < 2 && !/\d/.test(word)) continue;
    result.add(wordKey(word));
  }
  return result;
}

/** The exact-title key: folded words joined by single spaces. */
export function normalisedTitle(title: string): string {
  return trigramWords(title).join(" ");
}

/**
 * Numbers that identify an event (amounts, tolls, counts; "9.2%", "1,200", "$90 million"); years and
 * small counts are too common to tell events apart.
 */
export function eventNumbers(text: string): Set<string> {
  const result = new Set<string>();
  // A number glued to a word ("Covid-19", "F1", "BA.2") is part of a name.
  for (const match of text.matchAll(/(?<![\p{L}\d.,][-.]?)\d[\d,]*(?:\.\d+)?(?![\p{L}])/gu)) {
    const value = match[0].replace(/,(?=\d{3}\b)/g, "").replace(/[.,]$/, "");
    const n = Number(value);
    if (!Number.isFinite(n)) continue;
    if (Number.isInteger(n) && n >= 1900 && n <= 2100) continue;
    if (Number.isInteger(n) && n < 10) continue;
    result.add(value);
  }
  return result;
}

// Capitalised in every text, and no sign of one event.
const CALENDAR_WORDS = new Set(
  (
    "monday tuesday wednesday thursday friday saturday sunday january february march april june july " +
    "august september october november december jan feb mar apr jun jul aug sep sept oct nov dec"
  ).split(" "),
);

// A capitalised word, or an acronym (with dots: "U.N.", "E.P.A.").
const CAPITALISED = /(?:\p{Lu}\.){2,}|\p{Lu}[\p{L}'\u2019-]*/gu;

/**
 * Proper names: capitalised words that are not the first of a sentence and not stop words, taken from
 * text written in sentence case; in a headline Written In Title Case capitals say nothing, so only
 * acronyms count there.
 */
export function properNames(original: string): Set<string> {
  const result = new Set<string>();
  const text = withShortNames(original);
  const all = text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  const lower = all.filter((w) => /^\p{Ll}/u.test(w) && !STOP_WORDS.has(foldText(w))).length;
  const capitals = all.filter((w) => /^\p{Lu}/u.test(w)).length;
  // Title Case leaves no word but function words in small letters.
  const titleCase = capitals > 2 && lower === 0;
  // A sentence ends after a small letter or digit, so "U.N. Security Council" stays one.
  for (const sentence of text.split(/(?<=[\p{Ll}\d][.!?:;])\s+|\s+[-\u2013\u2014|]\s+/u)) {
    const words = sentence.split(/\s+/).filter((w) => /\p{L}/u.test(w));
    words.forEach((word, i) => {
      for (const m of word.matchAll(CAPITALISED)) {
        const raw = m[0].replace(/['\u2019]s$/, "").replace(/['\u2019-]+$/, "");
        const acronym = /^(?:\p{Lu}\.?){2,}$/u.test(raw);
        if (!acronym && (i === 0 || titleCase)) continue;
        const key = wordKey(raw.replace(/\./g, ""));
        if (key.length < 2 || CALENDAR_WORDS.has(key)) continue;
        if (!acronym && STOP_WORDS.has(key)) continue;
        result.add(key);
      }
    });
  }
  return result;
}
