import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { cacheKeyHeaders } from "../../shared/cache-keys";
import { routeCacheKeys } from "../cache/route-keys";

/**
 * What the server reads of the route that answers an address, before or after React Router
 * renders it: its body limit and its cache keys. Always the matched route's, never the raw path's.
 */

/** A matched route: its params and the parts of its `handle` the server reads. */
export interface RouteMatch {
  params: Record<string, string | undefined>;
  handle: RouteHandle;
}

interface RouteHandle {
  body?: string;
  cacheKeys?: unknown;
}

/**
 * The routes that answer `pathname`, outermost first. The route tree is read once per build (a
 * development build may change; a production one never does).
 */
export function routeMatcher(
  build: ServerBuild | (() => Promise<ServerBuild>),
): (pathname: string) => Promise<RouteMatch[]> {
  const trees = new WeakMap<ServerBuild, RouteObject[]>();
  return async (pathname) => {
    const current = typeof build === "function" ? await build() : build;
    let tree = trees.get(current);
    if (!tree) trees.set(current, (tree = routeTree(current)));
    return (matchRoutes(tree, pathname) ?? []).map((match) => ({
      params: match.params,
      handle: match.route.handle as RouteHandle,
    }));
  };
}

/**
 * The body limit of the route that answers `pathname`: the deepest matching route whose `handle`
 * names one of `named` (`{ body: "upload" }`), else `fallback`.
 */
export function routeBodyLimits(
  matchesFor: (pathname: string) => Promise<RouteMatch[]>,
  fallback: number,
  named: Record<string, number>,
): (pathname: string) => Promise<number> {
  if (Object.keys(named).length === 0) return () => Promise.resolve(fallback);
  return async (pathname) => {
    for (const match of (await matchesFor(pathname)).reverse()) {
      const body = match.handle.body;
      if (body !== undefined && named[body] !== undefined) return named[body];
    }
    return fallback;
  };
}

/**
 * A client navigation's data (`/article/x.data`, `/_root.data` for `/`) is kept by a CDN like the
 * page: it carries the keys its routes declare from their params (a document's keys, set by
 * entry.server.tsx, also name the stories its cards show).
 */
export async function addDataKeys(
  headers: Headers,
  path: string,
  matchesFor: (pathname: string) => Promise<RouteMatch[]>,
) {
  if (!path.endsWith(".data")) return;
  const pathname = path.slice(0, -".data".length).replace(/\/_root$/, "/") || "/";
  const matches = await matchesFor(pathname);
  const keys = routeCacheKeys(matches.map(({ handle, params }) => ({ handle, params })));
  for (const [name, value] of Object.entries(cacheKeyHeaders(keys))) headers.set(name, value);
}

/** The build's routes as the nested objects `matchRoutes` reads, each with its `handle`'s parts. */
function routeTree(build: ServerBuild): RouteObject[] {
  const entries = Object.values(build.routes).flatMap((route) => (route ? [route] : []));
  const childrenOf = (id: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === id)
      .map((route) => {
        const handle: unknown = route.module.handle;
        const read = (name: string): unknown =>
          typeof handle === "object" && handle !== null && name in handle
            ? (handle as Record<string, unknown>)[name]
            : undefined;
        const body = read("body");
        const routeHandle: RouteHandle = {
          body: body === undefined ? undefined : String(body),
          cacheKeys: read("cacheKeys"),
        };
        const common = {
          id: route.id,
          path: route.path,
          caseSensitive: route.caseSensitive,
          handle: routeHandle,
        };
        return route.index
          ? { ...common, index: true }
          : { ...common, children: childrenOf(route.id) };
      });
  return childrenOf(undefined);
}
