import { stringify } from "csv-stringify/sync";

/**
 * Rows as a CSV file for a spreadsheet: RFC 4180 (CRLF line ends, every cell in double quotes, a
 * quote doubled), and OWASP's defence against CSV injection: a cell that begins with = + - @, a tab
 * or a carriage return (or the full-width = + - @) gets a ' in front, so it is read as text, never
 * run as a formula.
 */
export function csvFile(rows: string[][]): string {
  return stringify(rows, {
    quoted: true,
    quoted_empty: true,
    escape_formulas: true,
    record_delimiter: "windows",
  });
}
