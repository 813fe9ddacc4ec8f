import {
  matchRoutes,
  type EntryContext,
  type RouteObject,
  type UNSAFE_AssetsManifest,
} from "react-router";

type RouteManifest = UNSAFE_AssetsManifest["routes"];
type EntryRoute = NonNullable<RouteManifest[string]>;

const shapes = new WeakMap<RouteManifest, RouteObject[]>();

/** The manifest's routes as a tree React Router can match against: ids, paths and nesting only. */
function shapeOf(routes: RouteManifest): RouteObject[] {
  let tree = shapes.get(routes);
  if (tree) return tree;
  const byParent = new Map<string | undefined, EntryRoute[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), route]);
  }
  const shape = ({ id, path, index, caseSensitive }: EntryRoute): RouteObject =>
    index
      ? { id, path, index, caseSensitive }
      : { id, path, caseSensitive, children: (byParent.get(id) ?? []).map(shape) };
  tree = (byParent.get(undefined) ?? []).map(shape);
  shapes.set(routes, tree);
  return tree;
}

/** Route ids matched at the addresses above pages, kept per address (a few hundred at most). */
const aboveMatches = new WeakMap<RouteManifest, Map<string, string[]>>();
const ABOVE_KEPT = 512;

function idsMatchedAt(routes: RouteManifest, pathname: string, basename: string): string[] {
  let known = aboveMatches.get(routes);
  if (!known) aboveMatches.set(routes, (known = new Map()));
  const key = `${basename}\n${pathname}`;
  let ids = known.get(key);
  if (ids === undefined) {
    const matches = matchRoutes(shapeOf(routes), pathname, basename) ?? [];
    ids = matches.flatMap((match) => match.route.id ?? []);
    if (known.size >= ABOVE_KEPT) known.clear();
    known.set(key, ids);
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
 * page's time. The HTML is the same (decision 017).
 */
export function withInitialRoutes(context: EntryContext): EntryContext {
  const ids = initialRouteIds(context);
  const routes: RouteManifest = {};
  for (const id of ids) routes[id] = context.manifest.routes[id];
  return { ...context, manifest: { ...context.manifest, routes } };
}
