/**
 * The category registry: the one list of categories in the product.
 *
 * Routes, the desktop header, the mobile menu, the footer, the home page chips,
 * the archives filter and feed ingestion all read this table. The spec's page
 * names and feed names disagree (a page asks for "Sports & Recreation", the
 * feed list says "Sports"); here every page names the key whose articles it
 * shows, so no page can silently come up empty.
 */

export type CategoryKey =
  | "local-news"
  | "national-news"
  | "world-news"
  | "politics"
  | "business"
  | "technology"
  | "sports"
  | "arts-culture"
  | "opinion"
  | "automotive"
  | "real-estate"
  | "health"
  | "food"
  | "lifestyle"
  | "community"
  | "from-the-archives"
  | "blog";

export interface Category {
  /** Stable key, used in `config/feeds.json` and stored with every article. */
  key: CategoryKey;
  /** The name from the spec: the category a page requests ("Failed to load {name} articles"). */
  name: string;
  /** The name of the feed group in the spec's list of sources (`name` unless given); null for a page that shows another key's articles. */
  feedName: string | null;
  /** For a page with a layout of its own over another category's articles (community shows local news). */
  articlesFrom: CategoryKey | null;
  /** Short label for menus, chips and the archives filter (`name` unless given). */
  label: string;
  /** The page heading. */
  heading: string;
  /** Route of the category's own page (`/{key}` unless given); null when its articles show only elsewhere (archives, search). */
  path: string | null;
  /** "See All ..." label of the 5-then-all toggle, or null when the page lists everything. */
  toggleLabel: string | null;
  /** Whether the page shows the spec's error text; automotive, real estate and health do not. */
  showsErrors: boolean;
  /** Earlier addresses that answer with a permanent redirect to `path`. */
  legacyPaths: readonly string[];
  /** Where the category is linked from. */
  inHeader: boolean | "extra-wide";
  inMobileMenu: boolean;
  inFooter: boolean;
  inArchivesFilter: boolean;
  /** The home page's News Categories chip, or null. */
  chip: { label: string; path: string } | null;
}

type CategoryFields = Pick<Category, "key" | "name"> &
  Partial<Omit<Category, "chip">> & { chip?: boolean | Category["chip"] };

function category({ chip = false, key, name, ...fields }: CategoryFields): Category {
  const path = fields.path === undefined ? `/${key}` : fields.path;
  const label = fields.label ?? name;
  return {
    feedName: name,
    articlesFrom: null,
    heading: name,
    toggleLabel: null,
    showsErrors: true,
    legacyPaths: [],
    inHeader: false,
    inMobileMenu: path !== null,
    inFooter: false,
    inArchivesFilter: false,
    key,
    name,
    label,
    path,
    ...fields,
    chip: chip === true ? (path === null ? null : { label, path }) : chip || null,
  };
}

export const CATEGORIES: readonly Category[] = [
  category({
    key: "local-news",
    chip: true,
    name: "Local News",
    toggleLabel: "See All Local News",
    inHeader: true,
    inFooter: true,
    inArchivesFilter: true,
  }),
  category({
    key: "national-news",
    chip: true,
    name: "National News",
    toggleLabel: "See All National News",
    inHeader: true,
  }),
  category({
    key: "world-news",
    chip: true,
    name: "World News",
    toggleLabel: "See All World News",
    inHeader: true,
  }),
  category({
    key: "politics",
    name: "Politics / Government",
    label: "Politics",
    heading: "Politics & Government",
    inHeader: true,
    inArchivesFilter: true,
  }),
  category({
    key: "community",
    name: "Local News",
    feedName: null,
    articlesFrom: "local-news",
    label: "Community",
    heading: "Community",
    inMobileMenu: false,
    inFooter: true,
    chip: true,
  }),
  category({
    key: "business",
    chip: true,
    name: "Business & Finance",
    label: "Business",
    toggleLabel: "See All Business News",
    inHeader: true,
    inFooter: true,
    inArchivesFilter: true,
  }),
  category({
    key: "technology",
    chip: true,
    name: "Technology & Innovation",
    label: "Technology",
    toggleLabel: "See All Technology News",
    inHeader: true,
    inArchivesFilter: true,
  }),
  category({
    key: "sports",
    chip: true,
    name: "Sports & Recreation",
    feedName: "Sports",
    label: "Sports",
    toggleLabel: "See All Sports News",
    inHeader: true,
    inArchivesFilter: true,
  }),
  category({
    key: "arts-culture",
    name: "Arts & Culture",
    toggleLabel: "See All Arts & Culture News",
    legacyPaths: ["/entertainment"],
    chip: { label: "Entertainment", path: "/entertainment" },
    inHeader: "extra-wide",
    inArchivesFilter: true,
  }),
  category({
    key: "opinion",
    chip: true,
    name: "Opinion & Editorial",
    feedName: "Opinion / Editorials",
    label: "Opinion",
    toggleLabel: "See All Opinion Pieces",
    inHeader: true,
    inArchivesFilter: true,
  }),
  category({
    key: "automotive",
    name: "Automotive & Energy",
    label: "Automotive",
    showsErrors: false,
  }),
  category({
    key: "real-estate",
    name: "Real Estate & Housing",
    label: "Real Estate",
    showsErrors: false,
  }),
  category({
    key: "health",
    name: "Health & Wellness",
    label: "Health",
    showsErrors: false,
  }),
  category({
    key: "food",
    chip: true,
    name: "Food & Dining",
    label: "Food",
    toggleLabel: "See All Food & Dining News",
  }),
  category({
    key: "lifestyle",
    chip: true,
    name: "Lifestyle & Wellness",
    feedName: "Lifestyle & Fashion",
    label: "Lifestyle",
    toggleLabel: "See All Lifestyle News",
  }),
  category({
    key: "from-the-archives",
    name: "From the Archives",
    path: null,
  }),
  category({
    key: "blog",
    name: "From Our Blog",
    feedName: "Blog feed",
    label: "Blog",
    path: null,
  }),
];

export type CategoryWithPage = Category & { path: string };

const CATEGORY_KEYS = CATEGORIES.map((c) => c.key);

/** Categories that have feeds of their own, and so a list of feeds in `config/feeds.json`. */
export const FEED_CATEGORIES: readonly Category[] = CATEGORIES.filter((c) => c.feedName !== null);

/** Whose articles a category's page shows. */
export function articleCategory(c: Category): CategoryKey {
  return c.articlesFrom ?? c.key;
}

export function isCategoryKey(value: string): value is CategoryKey {
  return (CATEGORY_KEYS as readonly string[]).includes(value);
}

export function categoryByKey(key: CategoryKey): Category {
  const found = CATEGORIES.find((c) => c.key === key);
  if (!found) throw new Error(`Unknown category key: ${key}`);
  return found;
}

/** Categories that have a page of their own, in menu order. */
export const CATEGORY_PAGES: readonly CategoryWithPage[] = CATEGORIES.filter(
  (c): c is CategoryWithPage => c.path !== null,
);

export function categoryByPath(path: string): CategoryWithPage | undefined {
  return CATEGORY_PAGES.find((c) => c.path === path);
}

/** Where an old address should now go, or undefined. */
export function legacyRedirect(path: string): string | undefined {
  return CATEGORY_PAGES.find((c) => c.legacyPaths.includes(path))?.path;
}

/** The loading text of a category page: "Loading {name} news...". */
export function loadingText(name: string): string {
  return `Loading ${name} news...`;
}

/** The error text of a category page: "Failed to load {name} articles". */
export function errorText(name: string): string {
  return `Failed to load ${name} articles`;
}
