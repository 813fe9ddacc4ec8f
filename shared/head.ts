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

/** What an error page shows in the tab when its loader could not produce a head. */
const ERROR_META: MetaDescriptor[] = [
  { title: pageTitle("Something went wrong") },
  { name: "robots", content: "noindex" },
];

/** A route's `meta`: the head its loader sent. */
export function headMeta({ loaderData }: { loaderData?: unknown }): MetaDescriptor[] {
  return (loaderData as { head?: Head } | undefined)?.head?.meta ?? ERROR_META;
}

/** A route's `handle.structuredData`: the structured data its loader sent. */
export function headStructuredData({ data }: StructuredDataArgs<unknown>): LinkedData[] {
  return (data as { head?: Head } | undefined)?.head?.structuredData ?? [];
}

/** For routes whose head comes from their loader. */
export const headHandle = { structuredData: headStructuredData };
