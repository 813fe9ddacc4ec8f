/**
 * The keys a page is cached under in front of the site (Fastly and Varnish read `Surrogate-Key`,
 * Cloudflare `Cache-Tag`), and which keys a change purges (decision 009). A page's keys are
 * declared by its route (`handle.cacheKeys`, given the route's params and loader data), never
 * worked out from the address; each change names the keys it touches (server/cache/changes.ts).
 */

/** On every page: purging it empties the whole CDN. */
export const SITE_KEY = "site";
export const HOME_KEY = "home";
/** The archive's pages, which list every category by date. */
export const ARCHIVES_KEY = "archives";
/** Search results, whatever was searched for. */
export const SEARCH_KEY = "search";
/** Every RSS feed of stories: the site's and each category's. */
export const FEEDS_KEY = "feeds";
/** The sitemap index, its files and the news sitemap. */
export const SITEMAPS_KEY = "sitemaps";
/** The blog's list and its feed. */
export const BLOG_KEY = "blog";
/** The corrections page and its feed. */
export const CORRECTIONS_KEY = "corrections";

/**
 * Keys are words of lower-case letters, digits, `-` and `_` (no spaces or commas, which separate
 * keys in the headers; nothing a regular expression reads specially, for Varnish's bans), at most
 * 100 characters: anything else in an id reads as `_`.
 */
const MAX_KEY_LENGTH = 100;
const word = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "_")
    .slice(0, MAX_KEY_LENGTH);

export const articleKey = (id: string) => word(`article-${id}`);
export const categoryKey = (category: string) => word(`category-${category}`);
export const blogPostKey = (slug: string) => word(`blog-post-${slug}`);

/** What a route says it shows: its own keys, and the stories its cards show. */
export interface PageKeys {
  keys: string[];
  /** Ids of the stories the page shows as cards; dropped when there are too many. */
  cards?: string[];
}

interface CacheKeysArgs {
  params: Record<string, string | undefined>;
  /** The route's loader data; absent when only the route is known (a `.data` request). */
  data?: unknown;
}

/** What a kind of page is cached under (server/cache/route-keys.ts). */
export type CacheKeysFunction = (args: CacheKeysArgs) => PageKeys;

/**
 * At most this many keys on a page: a page's headers stay small (about 3 KB at the longest keys).
 * A page with more cards than fit keeps only its own keys, which every change of its stories
 * purges anyway (a list's key).
 */
export const MAX_PAGE_KEYS = 32;

/** The keys a page's routes declared, each once, its own first, at most MAX_PAGE_KEYS. */
export function pageKeys(declared: readonly PageKeys[]): string[] {
  const own = unique(declared.flatMap((d) => d.keys.map(word)));
  const cards = unique(declared.flatMap((d) => (d.cards ?? []).map(articleKey))).filter(
    (key) => !own.includes(key),
  );
  if (own.length + cards.length <= MAX_PAGE_KEYS) return [...own, ...cards];
  return own.slice(0, MAX_PAGE_KEYS);
}

const unique = (keys: string[]) => [...new Set(keys.filter((key) => key !== ""))];

/** The headers naming `keys` for each kind of cache in front: Fastly/Varnish and Cloudflare. */
export function cacheKeyHeaders(keys: readonly string[]): Record<string, string> {
  if (keys.length === 0) return {};
  return { "Surrogate-Key": keys.join(" "), "Cache-Tag": keys.join(",") };
}

/** The ids of `{ id }` items in the lists given (loader data's cards), for `PageKeys.cards`. */
export function cardIds(...lists: unknown[]): string[] {
  const ids: string[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list as unknown[]) {
      if (typeof item === "object" && item !== null && "id" in item) {
        const id = (item as { id: unknown }).id;
        if (typeof id === "string") ids.push(id);
      }
    }
  }
  return ids;
}

/** A field of loader data that may be absent or of another shape (an error page's data). */
export function field(data: unknown, name: string): unknown {
  return typeof data === "object" && data !== null && name in data
    ? (data as Record<string, unknown>)[name]
    : undefined;
}

/**
 * What a change to stories touches: the home page, each story's category, the archive, search, the
 * feeds and the sitemaps, and the page of each story that was on the site before (`changed`; a new
 * story, of which only the category is given in `added`, had no page to purge).
 */
export function storyChangeKeys(
  changed: readonly { id: string; category: string }[],
  added: readonly string[] = [],
): string[] {
  if (changed.length === 0 && added.length === 0) return [];
  return unique([
    HOME_KEY,
    ...[...changed.map((story) => story.category), ...added].map(categoryKey),
    ARCHIVES_KEY,
    SEARCH_KEY,
    FEEDS_KEY,
    SITEMAPS_KEY,
    ...changed.map((story) => articleKey(story.id)),
  ]);
}
