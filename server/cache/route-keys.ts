import {
  ARCHIVES_KEY,
  articleKey,
  BLOG_KEY,
  blogPostKey,
  cardIds,
  categoryKey,
  CORRECTIONS_KEY,
  field,
  HOME_KEY,
  pageKeys,
  SEARCH_KEY,
  SITE_KEY,
  type CacheKeysFunction,
  type PageKeys,
} from "../../shared/cache-keys";
import { articleCategory, categoryByKey, categoryByPath } from "../../shared/categories";

/**
 * What each kind of page is cached under in front of the site (decision 009), from its route's
 * params and loader data. A route names its kind in its `handle` (`{ cacheKeys: "article" }`), as
 * it names a larger body limit (`{ body: "upload" }`): the route that answered decides, never the
 * address, and the functions stay on the server (a route's `handle` ships to the browser).
 */
const ROUTE_KEYS = {
  site: () => ({ keys: [SITE_KEY] }),
  home: ({ data }) => ({
    keys: [HOME_KEY],
    cards: cardIds(field(data, "headlines"), field(data, "featured"), field(data, "latest")),
  }),
  // A section's key names the stories it lists (Community lists Local News's).
  category: ({ params, data }) => {
    const category = categoryByPath(`/${params.category ?? ""}`);
    return {
      keys: category ? [categoryKey(articleCategory(category))] : [],
      cards: cardIds(field(data, "articles")),
    };
  },
  community: ({ data }) => ({
    keys: [categoryKey(articleCategory(categoryByKey("community")))],
    cards: cardIds(field(data, "articles")),
  }),
  archives: ({ data }) => ({ keys: [ARCHIVES_KEY], cards: cardIds(field(data, "articles")) }),
  search: () => ({ keys: [SEARCH_KEY] }),
  article: ({ params, data }) => ({
    keys: params.id === undefined ? [] : [articleKey(params.id)],
    cards: cardIds(field(data, "related"), field(data, "latest")),
  }),
  blog: () => ({ keys: [BLOG_KEY] }),
  "blog-post": ({ params }) => ({
    keys: params.slug === undefined ? [] : [blogPostKey(params.slug)],
  }),
  corrections: () => ({ keys: [CORRECTIONS_KEY] }),
} satisfies Record<string, CacheKeysFunction>;

/** The name a route gives its kind of page in `handle.cacheKeys`. */
export type RouteKeysName = keyof typeof ROUTE_KEYS;

/** A matched route as the server knows it: its module's `handle`, its params and its data. */
export interface KeyedMatch {
  handle: unknown;
  params: Record<string, string | undefined>;
  data?: unknown;
}

/** The bounded keys of a page from the routes that answered it (each `handle.cacheKeys`). */
export function routeCacheKeys(matches: readonly KeyedMatch[]): string[] {
  const declared: PageKeys[] = [];
  for (const match of matches) {
    const name = cacheKeysName(match.handle);
    if (name === undefined) continue;
    declared.push(ROUTE_KEYS[name]({ params: match.params, data: match.data }));
  }
  return pageKeys(declared);
}

function cacheKeysName(handle: unknown): RouteKeysName | undefined {
  if (typeof handle !== "object" || handle === null || !("cacheKeys" in handle)) return undefined;
  const name = (handle as { cacheKeys: unknown }).cacheKeys;
  return typeof name === "string" && Object.hasOwn(ROUTE_KEYS, name)
    ? (name as RouteKeysName)
    : undefined;
}
