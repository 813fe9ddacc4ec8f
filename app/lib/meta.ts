import { site } from "../../content/site";

/** "{page} | {site name}". */
export function pageTitle(page: string): string {
  return `${page} | ${site.name}`;
}

export function basicMeta(page: string, description: string) {
  return [{ title: pageTitle(page) }, { name: "description", content: description }];
}
