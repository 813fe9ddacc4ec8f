import {
  matchRoutes,
  type EntryContext,
  type RouteObject,
  type UNSAFE_AssetsManifest,
} from "react-router";

type RouteManifest = UNSAFE_AssetsManifest["routes"];
type EntryRoute = NonNullable<RouteManifest[string]>;

/** Per manifest: its routes as a tree to match against, and the ids matched at each address. */
interface Matcher {
  tree: RouteObject[];
  above: Map<string, string[]>;
}
const matchers = new WeakMap<RouteManifest, Matcher>();
/** Addresses above pages are a few hundred at most; a bound all the same. */
const ABOVE_KEPT = 512;

/** The manifest's routes as a tree React Router can match against, built once. */
function matcherOf(routes: RouteManifest): Matcher {
  let matcher = matchers.get(routes);
  if (matcher) return matcher;
  const byParent = new Map<string | undefined, EntryRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  }
  const shape = ({ id, path, index, caseSensitive }: EntryRoute): RouteObject =>
    index
      ? { id, path, index, caseSensitive }
      : { id, path, caseSensitive, children: (byParent.get(id) ?? []).map(shape) };
  matcher = { tree: (byParent.get(undefined) ?? []).map(shape), above: new Map() };
  matchers.set(routes, matcher);
  return matcher;
}

function idsMatchedAt(routes: RouteManifest, pathname: string, basename: string): string[] {
  const { tree, above } = matcherOf(routes);
  const key = `${basename}\n${pathname}`;
  let ids = above.get(key);
  if (ids === undefined) {
    const matches = matchRoutes(tree, pathname, basename) ?? [];
    ids = matches.flatMap((match) => match.route.id ?? []);
    if (above.size >= ABOVE_KEPT) above.clear();
    above.set(key, ids);
  }
  return ids;
}

/**
 * The route ids a page's HTML can name: the page's own matches, and those of every address above
 * its path (`/a/b/c`: `/a/b`, `/a` and `/`), which React Router inlines into the page as the
 * browser's first manifest when routes are discovered lazily.
 */
export function initialRouteIds(context: EntryContext): Set<string> {
  const { matches, location, basename } = context.staticHandlerContext;
  const ids = new Set(matches.map((match) => match.route.id));
  const segments = location.pathname.split("/").filter(Boolean);
  for (let depth = segments.length - 1; depth >= 0; depth--) {
    const above = `/${segments.slice(0, depth).join("/")}`;
    for (const id of idsMatchedAt(context.manifest.routes, above, basename || "/")) ids.add(id);
  }
  return ids;
}

/**
 * The server entry's context with only the routes the page can name (`initialRouteIds`).
 *
 * React Router's `ServerRouter` turns every route of the manifest into a router route on every
 * render (twice over: server routes, then data routes), though a static render only ever reads the
 * matched ones and the addresses above them; with ~70 routes that was about 7 % of an uncached
 * page's time. Its `<Scripts>` then matches each of those addresses again to write the browser's
 * first manifest, trying the route branches in rank order: all ~70 of them for `/`, whose index
 * route ranks near the end. It is given the branches that end in a named route, in the same order,
 * so each address finds the same route as before among a handful. The HTML is the same (decision
 * 017).
 */
export function withInitialRoutes(context: EntryContext): EntryContext {
  const ids = initialRouteIds(context);
  const routes: RouteManifest = {};
  for (const id of ids) routes[id] = context.manifest.routes[id];
  const branches = context.branches.filter((branch) => {
    const leaf = branch.routesMeta[branch.routesMeta.length - 1];
    return leaf !== undefined && ids.has(leaf.route.id);
  });
  return { ...context, manifest: { ...context.manifest, routes }, branches };
}
