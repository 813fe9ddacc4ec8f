import type { MetaDescriptor } from "react-router";
import type { LinkedData, StructuredDataArgs } from "./structured-data";
import { pageTitle } from "./title";

/**
 * A page's head as its loader worked it out on the server (title, description, canonical, social
 * tags and structured data), so the code that builds it never ships to the browser.
 */
export interface Head {
  meta: MetaDescriptor[];
  structuredData: LinkedData[];
}

/** What a route's `meta` receives that the head needs: where the page is, and the root's data. */
export interface MetaContext {
  location: { pathname: string; search: string };
  matches: readonly ({ id: string; data?: unknown; loaderData?: unknown } | undefined)[];
  loaderData?: unknown;
}

/** The public origin (SITE_URL) and the site settings, as the root loader sent them. */
export function rootDataOf(matches: MetaContext["matches"]): {
  siteUrl: string;
  site: { name: string; tagline: string };
} {
  const root = matches.find((m) => m?.id === "root");
  const data = (root?.loaderData ?? root?.data) as
    { siteUrl?: string; site?: { name: string; tagline: string } } | undefined;
  return { siteUrl: data?.siteUrl ?? "", site: data?.site ?? { name: "", tagline: "" } };
}

/** A route's `meta`: the head its loader sent, or an error page's when it sent none. */
export function headMeta({ loaderData, matches }: MetaContext): MetaDescriptor[] {
  return (
    (loaderData as { head?: Head } | undefined)?.head?.meta ?? [
      { title: pageTitle("Something went wrong", rootDataOf(matches).site.name) },
      { name: "robots", content: "noindex" },
    ]
  );
}

/** A route's `handle.structuredData`: the structured data its loader sent. */
function headStructuredData({ data }: StructuredDataArgs<unknown>): LinkedData[] {
  return (data as { head?: Head } | undefined)?.head?.structuredData ?? [];
}

/** For routes whose head comes from their loader. */
export const headHandle = { structuredData: headStructuredData };
