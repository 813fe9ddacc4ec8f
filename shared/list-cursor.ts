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

/** The cursor an address names, if any; one that is not well formed is none. */
export function parseCursor(params: URLSearchParams): ListCursor | undefined {
  for (const direction of ["after", "before"] as const) {
    const value = params.get(direction) ?? "";
    const split = value.indexOf("~");
    const date = value.slice(0, split);
    const id = value.slice(split + 1);
    if (split > 0 && id.length > 0 && id.length <= 300 && !Number.isNaN(Date.parse(date))) {
      return { direction, date: new Date(date).toISOString(), id };
    }
  }
  return undefined;
}

/** Sets `cursor` on `query` as parseCursor reads it. */
export function setCursor(query: URLSearchParams, cursor: ListCursor): void {
  query.set(cursor.direction, `${cursor.date}~${cursor.id}`);
}
