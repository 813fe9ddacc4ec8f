/** A plain text table with a header rule, columns padded to their widest cell. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** A time as the commands show it, in UTC to the minute (`2026-11-28 16:04`); `none` for null. */
export const minute = (date: Date | null, none = "") =>
  date ? date.toISOString().replace("T", " ").slice(0, 16) : none;
