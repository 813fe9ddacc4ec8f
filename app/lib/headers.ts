import type { HeadersArgs } from "react-router";

/**
 * A page with a form answers a POST with its action's headers (Retry-After on a 429, a cookie),
 * and a GET with its loader's.
 */
export function formHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  return [...actionHeaders.keys()].length > 0 ? actionHeaders : loaderHeaders;
}

/** The staff's newsroom (decision 023): never kept by any cache, never indexed. */
export const NEWSROOM_HEADERS = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex, nofollow",
} as const;

/**
 * A newsroom page's headers, set by the routes themselves (the layout for every page inside it):
 * whether a page may be kept is decided from the route that answered, whatever the address's
 * spelling.
 */
export function newsroomHeaders(args: HeadersArgs): Headers {
  const headers = new Headers(formHeaders(args));
  for (const [name, value] of Object.entries(NEWSROOM_HEADERS)) headers.set(name, value);
  return headers;
}
