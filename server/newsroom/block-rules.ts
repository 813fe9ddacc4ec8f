import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { blockRules } from "../db/schema";
import {
  BLOCK_FIELD_LABELS,
  BLOCK_FIELDS,
  MAX_PATTERN_LENGTH,
  type BlockField,
} from "../../shared/newsroom";

/**
 * Block rules (as Miniflux's): staff name words, a phrase or a pattern, and feed items whose title,
 * author or link match are kept out at ingest and can be taken down where already stored.
 *
 * A pattern is plain text in which `*` stands for any run of characters, matched in any case against
 * whole words: `casino` matches "Casino opens" but not "casinos"; `casino*` matches both, and
 * `/sponsored/` any link with that folder. Staff never write a regular expression, and the matcher
 * below runs in time proportional to the text's length times the pattern's, whatever they type:
 * there is no backtracking to blow up.
 */

export interface BlockRule {
  id: number;
  /** Null: every feed. */
  feedId: number | null;
  field: BlockField;
  pattern: string;
}

/** What a rule is matched against. */
export interface BlockableItem {
  title: string;
  author: string;
  link: string;
}

const STAR = "*";

/**
 * Lower case, runs of white space as one space: how patterns and texts are compared. Control
 * characters count as space (stored text has none, and PostgreSQL refuses NUL in a pattern).
 */
function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim();
}

/** A pattern as stored: normalised, runs of `*` as one. Or why it cannot be one. */
export function parsePattern(input: string): { pattern: string } | { error: string } {
  const pattern = normalized(input).replace(/\*+/g, STAR);
  if (pattern.replace(/[*\s]/g, "").length < 2) {
    return { error: "Give at least two letters or digits to match." };
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return { error: `Keep the pattern under ${MAX_PATTERN_LENGTH} characters.` };
  }
  return { pattern };
}

const WORD = /[\p{L}\p{N}]/u;
const isWordChar = (char: string | undefined) => char !== undefined && WORD.test(char);

/**
 * Whether `pattern` (as parsePattern returns it) occurs in `text` on word boundaries: where the
 * pattern begins or ends with a letter or digit, the text must not continue the word there.
 *
 * A simulation of the pattern's automaton over the text, every start position at once: at most
 * (text length + 1) × (pattern length + 1) steps, with no backtracking.
 */
export function patternMatches(pattern: string, text: string): boolean {
  const tokens = [...pattern];
  const chars = [...normalized(text)];
  const m = tokens.length;
  if (m === 0) return false;
  const wordAtStart = isWordChar(tokens[0]);
  const wordAtEnd = isWordChar(tokens[m - 1]);
  // states[j]: the first j tokens match the text just read, from some allowed start.
  let states = new Array<boolean>(m + 1).fill(false);
  const close = (set: boolean[]) => {
    // A star may match nothing.
    for (let j = 0; j < m; j++) if (set[j] && tokens[j] === STAR) set[j + 1] = true;
  };
  for (let i = 0; i <= chars.length; i++) {
    if (!wordAtStart || !isWordChar(chars[i - 1])) {
      states[0] = true;
      close(states);
    }
    if (states[m] && (!wordAtEnd || !isWordChar(chars[i]))) return true;
    const char = chars[i];
    if (char === undefined) break;
    const next = new Array<boolean>(m + 1).fill(false);
    for (let j = 0; j < m; j++) {
      if (!states[j]) continue;
      if (tokens[j] === STAR) next[j] = true;
      else if (tokens[j] === char) next[j + 1] = true;
    }
    close(next);
    states = next;
  }
  return false;
}

/** The first rule that keeps the item of that feed out, if any. */
export function blockingRule(
  rules: readonly BlockRule[],
  feedId: number | null,
  item: BlockableItem,
): BlockRule | undefined {
  return rules.find((rule) => {
    if (rule.feedId !== null && rule.feedId !== feedId) return false;
    const fields = rule.field === "any" ? (["title", "author", "link"] as const) : [rule.field];
    return fields.some((field) => patternMatches(rule.pattern, item[field]));
  });
}

/** How a rule reads in a take-down reason and the audit log. */
export function describeRule(rule: Pick<BlockRule, "id" | "field" | "pattern">): string {
  return `Block rule #${rule.id} (${BLOCK_FIELD_LABELS[rule.field].toLowerCase()}: "${rule.pattern}")`;
}

const asField = (value: string): BlockField =>
  (BLOCK_FIELDS as readonly string[]).includes(value) ? (value as BlockField) : "any";

export async function listBlockRules(db: Database): Promise<BlockRule[]> {
  const rows = await db
    .select({
      id: blockRules.id,
      feedId: blockRules.feedId,
      field: blockRules.field,
      pattern: blockRules.pattern,
    })
    .from(blockRules)
    .orderBy(asc(blockRules.id));
  return rows.map((row) => ({ ...row, field: asField(row.field) }));
}

export async function blockRuleById(db: Database, id: number): Promise<BlockRule | undefined> {
  const [row] = await db.select().from(blockRules).where(eq(blockRules.id, id)).limit(1);
  return row
    ? { id: row.id, feedId: row.feedId, field: asField(row.field), pattern: row.pattern }
    : undefined;
}
