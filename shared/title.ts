/** "{page} | {site name}". */
export function pageTitle(page: string, siteName: string): string {
  return `${page} | ${siteName}`;
}
