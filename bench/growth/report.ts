/** bench:growth's rows: one page timed on the new site and the grown one, and their table. */
import { formatMarkdownTable } from "../../server/test-support/report";

export interface Row {
  page: string;
  small: number;
  large: number;
  /** An absolute bound in ms, besides the 1.5x ratio every page is held to. */
  limit?: number;
  /** The page lists more on the grown site (a month's sitemap: 8,000 articles, not 240): held to `limit` alone. */
  grows?: true;
  /**
   * Held to "no slower" (the words for the ingest pass), read as within 1.1x: runs of the
   * same code differ by that much on this shared machine.
   */
  noSlower?: true;
}

/** The ratio "no slower" allows: the spread of runs of the same code. */
export const NO_SLOWER = 1.1;

export const ratio = (row: Row) => row.large / row.small;
/** Within 1.5x of the new site, or under 10 ms: a ratio of two small numbers is noise. */
export const meets = (row: Row) =>
  (row.noSlower ? ratio(row) <= NO_SLOWER : row.grows || ratio(row) <= 1.5 || row.large < 10) &&
  (row.limit === undefined || row.large <= row.limit);

const targetOf = (row: Row) =>
  row.noSlower
    ? `no slower (≤ ${NO_SLOWER}x)`
    : row.grows
      ? `≤ ${row.limit} ms`
      : row.limit
        ? `≤ 1.5x, ≤ ${row.limit} ms`
        : "≤ 1.5x";

export function table(rows: Row[], label: string): string {
  return formatMarkdownTable(
    ["page", "new site", label, "ratio", "target", ""],
    rows.map((row) => [
      row.page,
      `${row.small.toFixed(1)} ms`,
      `${row.large.toFixed(1)} ms`,
      `${ratio(row).toFixed(2)}x`,
      targetOf(row),
      meets(row) ? "PASS" : "MISS",
    ]),
  );
}
