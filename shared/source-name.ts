/**
 * The outlet an article came from, as pages name it (the photo credit, "also covered by"): its
 * domain without "www.". The story groups' SQL (server/grouping/store.ts) names it the same way.
 */
export function sourceName(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, "");
  } catch {
    return "the original publisher";
  }
}
