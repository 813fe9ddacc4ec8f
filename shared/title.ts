import { site } from "../content/site";

/** "{page} | {site name}". */
export function pageTitle(page: string): string {
  return `${page} | ${site.name}`;
}
