import {
  eventNumbers,
  normalisedTitle,
  properNames,
  setSimilarity,
  significantWords,
  trigrams,
} from "./words";

/**
 * Whether two articles from different feeds report the same event (issue #36). Pure functions, no I/O:
 * ingest hands in the new article and recent ones from other feeds; the benchmark hands in a labelled
 * corpus. Titles and openings are compared as pg_trgm would compare them (`trigramSimilarity` gives the
 * numbers `similarity(unaccent(lower(a)), unaccent(lower(b)))` gives), so a database pre-filter and this
 * module agree. Precision comes first: a wrong merge hides a story, a missed one only shows it twice.
 */

/** Only articles published this close together can be one event. */
export const MATCH_WINDOW_HOURS = 96;

/** The score from which two articles are one event; see docs/decisions/029-story-grouping-match.md. */
export const MATCH_THRESHOLD = 0.39;

/**
 * A word is rare when at most one article in a hundred of the window has it (its weight is 1 or more).
 * Five rare words shared by two short texts a few days apart do not meet by chance.
 */
const RARE_WEIGHT = 1;
const RARE_WORDS_FOR_MATCH = 5;
const RARE_WORD_SCORE = 0.1;

/**
 * What a version must carry of the headline words every version of a group has, to join a group of
 * two or more: three quarters of their weight, or three of them. The words all its headlines share are
 * what the story is about; when near-identical headlines share many, three of them are enough.
 */
const GROUP_CORE_SHARE = 0.75;
const GROUP_CORE_WORDS = 3;

export interface MatchArticle {
  feedId: string | number;
  title: string;
  /** The opening text (the excerpt); may be empty. */
  excerpt: string;
  publishedAt: Date;
}

/** What is compared, computed once per article. */
export interface MatchFeatures {
  feedId: string | number;
  time: number;
  title: string;
  words: Set<string>;
  /** Significant words of the title and the opening together. */
  openingWords: Set<string>;
  titleTrigrams: Set<string>;
  names: Set<string>;
  numbers: Set<string>;
}

/** How much of the excerpt counts as the opening. */
const OPENING_LENGTH = 200;

export function matchFeatures(article: MatchArticle): MatchFeatures {
  const opening = article.excerpt.slice(0, OPENING_LENGTH);
  const both = `${article.title}. ${opening}`;
  return {
    feedId: article.feedId,
    time: article.publishedAt.getTime(),
    title: normalisedTitle(article.title),
    words: significantWords(article.title),
    openingWords: significantWords(both),
    titleTrigrams: trigrams(article.title),
    names: new Set([...properNames(article.title), ...properNames(opening)]),
    numbers: eventNumbers(both),
  };
}

/** How much a shared word tells: its inverse document frequency among recent articles. */
export type WordWeight = (word: string) => number;

/** Every word counts the same: for comparing two articles with nothing around them. */
const EQUAL_WEIGHTS: WordWeight = () => 1;

/**
 * Word weights from the articles of the window: a word in many of them ("Ukraine", "Trump", "best")
 * says little, a word in few ("Sacramento", "Hydra") says much. Scaled so a word in one article of a
 * hundred weighs 1; a word unseen weighs as one seen once.
 */
export function wordWeights(articles: Iterable<MatchFeatures>): WordWeight {
  const df = new Map<string, number>();
  let n = 0;
  for (const a of articles) {
    n++;
    for (const w of a.openingWords) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const scale = Math.log(100);
  return (word) => Math.max(0.05, Math.log((n + 1) / (df.get(word) ?? 1)) / scale);
}

export interface MatchScore {
  /** 0 to 1; the articles are one event from MATCH_THRESHOLD. */
  score: number;
  /** pg_trgm similarity of the titles. */
  titleSimilarity: number;
  /** Weighted Dice overlap of the titles' significant words. */
  titleOverlap: number;
  /** The same over the title and opening together. */
  openingOverlap: number;
  sharedWords: number;
  /** Shared words of the title and opening that are rare in the window, at least two in a title. */
  rareWords: number;
  /** Names both carry beyond the words both headlines share (those the title overlap counts). */
  sharedNames: number;
  sharedNumbers: number;
}

function shared(a: Set<string>, b: Set<string>): string[] {
  const result: string[] = [];
  for (const x of a) if (b.has(x)) result.push(x);
  return result;
}

function weightOf(words: Iterable<string>, weight: WordWeight): number {
  let sum = 0;
  for (const w of words) sum += weight(w);
  return sum;
}

/** Dice coefficient with weighted words: twice the shared weight over both sets' weight. */
function weightedOverlap(a: Set<string>, b: Set<string>, weight: WordWeight): number {
  const total = weightOf(a, weight) + weightOf(b, weight);
  return total === 0 ? 0 : (2 * weightOf(shared(a, b), weight)) / total;
}

/**
 * Shared words rare in the window, or 0 unless at least two of them are in either title: a headline
 * says what the story is about, an opening may share a rare word by way of background.
 */
function rareShared(a: MatchFeatures, b: MatchFeatures, words: string[], weight: WordWeight) {
  let rare = 0;
  let inTitle = 0;
  for (const w of words) {
    if (weight(w) < RARE_WEIGHT) continue;
    rare++;
    if (a.words.has(w) || b.words.has(w)) inTitle++;
  }
  return inTitle >= 2 ? rare : 0;
}

/**
 * How alike two articles are: the best of the titles' weighted word overlap, their trigram similarity
 * blended with it, and the overlap of title and opening; shared numbers, and names beyond the words
 * both headlines share, add a little. Fewer than two shared significant words is never enough (two
 * court rulings share "court" and "ruling").
 * Overlaps are shares of each text, so two long openings telling one event in different words score
 * low; five or more shared rare words score 0.1 each whatever the rest.
 */
export function scorePair(a: MatchFeatures, b: MatchFeatures, weight = EQUAL_WEIGHTS): MatchScore {
  const titleSimilarity = setSimilarity(a.titleTrigrams, b.titleTrigrams);
  // One shared headline word is no overlap of headlines, however short they are ("Story 2").
  const titleOverlap =
    shared(a.words, b.words).length < 2 ? 0 : weightedOverlap(a.words, b.words, weight);
  const openingOverlap = weightedOverlap(a.openingWords, b.openingWords, weight);
  const sharedOpening = shared(a.openingWords, b.openingWords);
  const sharedWords = sharedOpening.length;
  const rareWords = rareShared(a, b, sharedOpening, weight);
  // A name both headlines carry is already counted by the headlines' overlap: only names beyond them
  // (in an opening, or in one headline and the other's opening) add to it.
  let sharedNames = 0;
  for (const name of a.names) {
    if (b.names.has(name) && !(a.words.has(name) && b.words.has(name))) sharedNames++;
  }
  const sharedNumbers = shared(a.numbers, b.numbers).length;
  const base = Math.max(titleOverlap, (titleSimilarity + titleOverlap) / 2, openingOverlap);
  let score = Math.min(
    1,
    base + NUMBER_BONUS * Math.min(sharedNumbers, 2) + NAME_BONUS * Math.min(sharedNames, 3),
  );
  if (rareWords >= RARE_WORDS_FOR_MATCH)
    score = Math.max(score, Math.min(1, RARE_WORD_SCORE * rareWords));
  if (a.title !== "" && a.title === b.title) score = 1;
  else if (sharedWords < 2) score = 0;
  return {
    score,
    titleSimilarity,
    titleOverlap,
    openingOverlap,
    sharedWords,
    rareWords,
    sharedNames,
    sharedNumbers,
  };
}

const NUMBER_BONUS = 0.1;
const NAME_BONUS = 0.03;

/** Whether two articles may be compared at all: different feeds, published within the window. */
export function comparable(a: MatchFeatures, b: MatchFeatures, windowHours = MATCH_WINDOW_HOURS) {
  return a.feedId !== b.feedId && Math.abs(a.time - b.time) <= windowHours * 3_600_000;
}

/** The decision: one event or not. */
export function sameEvent(
  a: MatchFeatures,
  b: MatchFeatures,
  weight = EQUAL_WEIGHTS,
  threshold = MATCH_THRESHOLD,
): boolean {
  return comparable(a, b) && scorePair(a, b, weight).score >= threshold;
}

/**
 * NewsBlur's rule, the baseline the issue names: the same normalised title, or titles sharing at least
 * 60 % of their significant words (at least 3), within 5 days. "Their" is read as each title's: shared
 * words over the longer title's, unless `ofShorter`.
 */
export function newsBlurSame(a: MatchFeatures, b: MatchFeatures, ofShorter = false): boolean {
  if (!comparable(a, b, 120)) return false;
  if (a.title !== "" && a.title === b.title) return true;
  const count = shared(a.words, b.words).length;
  const of = ofShorter
    ? Math.min(a.words.size, b.words.size)
    : Math.max(a.words.size, b.words.size);
  return count >= 3 && count / of >= 0.6;
}

/** A recent article from another feed, the group it is in, and how well the new article matches it. */
export interface GroupCandidate {
  group: string;
  score: number;
}

/**
 * Whether an article may join a group whose versions are `members`: with two or more, its title and
 * opening must carry GROUP_CORE_SHARE of the weight of the words all their headlines have, or
 * GROUP_CORE_WORDS of them. An explainer on expelling Russia from the Security Council matches one
 * report of Zelensky's speech there, but lacks "Zelensky", which every headline on the speech has.
 * (The words all versions' openings share were tried first: two versions quoting one line share its
 * words, and a third that quotes another was kept out.)
 */
export function fitsGroup(
  article: MatchFeatures,
  members: readonly MatchFeatures[],
  weight = EQUAL_WEIGHTS,
): boolean {
  const [first, ...rest] = members;
  if (first === undefined || rest.length === 0) return true;
  let core = 0;
  let carried = 0;
  let carriedWords = 0;
  for (const w of first.words) {
    if (!rest.every((m) => m.words.has(w))) continue;
    core += weight(w);
    if (!article.openingWords.has(w)) continue;
    carried += weight(w);
    carriedWords++;
  }
  return core === 0 || carried >= GROUP_CORE_SHARE * core || carriedWords >= GROUP_CORE_WORDS;
}

/**
 * The group a new article joins: that of its best match at `threshold` or above among the groups it
 * `fits` (fitsGroup, given the group); null for a group of its own. (Joining on two weaker matches
 * within one group was tried and measured: it pulled Musk's SEC filing into the story of his board
 * seat; see the decision record.)
 */
export function chooseGroup(
  candidates: GroupCandidate[],
  threshold = MATCH_THRESHOLD,
  fits: (group: string) => boolean = () => true,
): string | null {
  const ranked = candidates.filter((c) => c.score >= threshold).sort((a, b) => b.score - a.score);
  const tried = new Map<string, boolean>();
  for (const c of ranked) {
    let ok = tried.get(c.group);
    if (ok === undefined) tried.set(c.group, (ok = fits(c.group)));
    if (ok) return c.group;
  }
  return null;
}
