import type { Article } from "./article";

/**
 * Where a page of a newest-first list starts (keyset paging): after the last story of the page
 * before it, or before the first story of the page after it. In an address it is `after=` or
 * `before=` with "date~id" as its value.
 */
export interface ListCursor {
  direction: "after" | "before";
  /** ISO 8601. */
  date: string;
  id: string;
}

export function cursorOf(article: Article, direction: ListCursor["direction"]): ListCursor {
  return { direction, date: article.date, id: article.id };
}

/** The dates a cursor may name: four-digit years, which PostgreSQL's timestamps hold (JavaScript's
 * reach ±275,760 years, and the database refuses those beyond its own). */
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

/** A cursor's date as an address writes it, or null when it is none or outside years 1 to 9999. */
export function cursorDate(text: string): Date | null {
  const time = Date.parse(text);
  return time >= EARLIEST && time <= LATEST ? new Date(time) : null;
}

/** A cursor's story id, or null: at most 300 characters, no control character (nor NUL, which
 * PostgreSQL refuses in text). */
export function cursorId(text: string): string | null {
  return text.length <= 300 && !/\p{Cc}/u.test(text) ? text : null;
}

/** The cursor an address names, if any; one that is not well formed is none. */
export function parseCursor(params: URLSearchParams): ListCursor | undefined {
  for (const direction of ["after", "before"] as const) {
    const value = params.get(direction) ?? "";
    const split = value.indexOf("~");
    const date = cursorDate(value.slice(0, split));
    const id = cursorId(value.slice(split + 1));
    if (split > 0 && date && id) return { direction, date: date.toISOString(), id };
  }
  return undefined;
}

/** Sets `cursor` on `query` as parseCursor reads it. */
export function setCursor(query: URLSearchParams, cursor: ListCursor): void {
  query.set(cursor.direction, `${cursor.date}~${cursor.id}`);
}
