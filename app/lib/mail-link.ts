import type { HeadersArgs } from "react-router";

/**
 * Pages opened from a link in a newsletter mail carry a token in their address: they are never
 * cached or indexed. (The site's Referrer-Policy already sends other sites no more than our origin;
 * `no-referrer` here would make browsers send `Origin: null` with the page's own form, which the
 * same-origin check for forms refuses.)
 */
export function mailLinkHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  const headers = new Headers([...actionHeaders.keys()].length > 0 ? actionHeaders : loaderHeaders);
  headers.set("Cache-Control", "private, no-store");
  headers.set("X-Robots-Tag", "noindex");
  return headers;
}

/** The token a mail link carries, from the posted form or else the address. */
export function linkToken(request: Request, form?: FormData): string {
  const posted = form?.get("token");
  if (typeof posted === "string" && posted) return posted.slice(0, 200);
  return (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200);
}
