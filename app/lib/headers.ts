import type { HeadersArgs } from "react-router";

/**
 * A page with a form answers a POST with its action's headers (Retry-After on a 429, a cookie),
 * and a GET with its loader's.
 */
export function formHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  return [...actionHeaders.keys()].length > 0 ? actionHeaders : loaderHeaders;
}
