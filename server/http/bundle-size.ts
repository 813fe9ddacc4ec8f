import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

/** The production build's manifest, as React Router's server build exports it. */
interface BuildAssets {
  entry: { module: string; imports?: string[]; css?: string[] };
  routes: Record<
    string,
    { id: string; parentId?: string; module: string; imports?: string[]; css?: string[] }
  >;
}

export interface RouteBundle {
  route: string;
  /** Scripts a first visit loads (entry, root, every route down to this one, their imports). */
  scripts: string[];
  jsGzipBytes: number;
  cssGzipBytes: number;
}

const KB = 1024;

/**
 * The client JavaScript budget, on the production build: what a first visit downloads, gzipped.
 * React and React Router alone are about 107 KB of it. The article page's was 115 KB until every
 * page got its ad slots and house ads (+0.6 KB) and stored pictures their <picture> markup and
 * preload (+0.9 KB): 116 KB, measured at 115.8 KB (docs/BENCHMARKS.md); then 117 KB when the root
 * layout began to link the stylesheet itself, so that it is asked for before the scripts
 * (+0.05 KB: app/root.tsx); then 117.5 KB when its view moved to a module the newsroom's preview
 * draws drafts with (app/components/ArticleView.tsx: the same code in one more file, +0.16 KB).
 * No page loads more than the home page's.
 */
export const JS_BUDGETS = {
  "routes/home": 125 * KB,
  "routes/article": 117.5 * KB,
} as const satisfies Record<string, number>;

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/**
 * The newsroom's pages, for staff only: the one place the rich body editor may run, fetched once
 * its page has hydrated (app/components/editor/BodyField.tsx). Every other page is a reader's.
 */
export const isNewsroomRoute = (id: string): boolean =>
  id === "newsroom" || id.startsWith("routes/newsroom/");

/**
 * Tiptap's and ProseMirror's code, recognised in a minified script by the names it keeps: the
 * editor's CSS classes (`ProseMirror`, `ProseMirror-selectednode`), plugin keys and Tiptap's own
 * names (`tiptap`, `TiptapContext`). No other code of the site says either word.
 */
const EDITOR_LIBRARY = /prosemirror|tiptap/i;

export interface EditorBundle {
  /** The scripts that hold the editor's libraries (its own chunk). */
  scripts: string[];
  jsGzipBytes: number;
}

/**
 * The build's scripts that hold the rich body editor's libraries, gzipped: what the editor page
 * fetches after hydration on top of its first visit. Null when no page of the build uses it.
 */
export async function editorBundle(buildDir = path.resolve("build")): Promise<EditorBundle | null> {
  const assets = path.join(buildDir, "client/assets");
  if (!fs.existsSync(assets)) throw new Error(`No build at ${buildDir}: run npm run build first.`);
  const scripts = fs
    .readdirSync(assets)
    .filter((name) => name.endsWith(".js"))
    .filter((name) => EDITOR_LIBRARY.test(fs.readFileSync(path.join(assets, name), "utf8")))
    .map((name) => `/assets/${name}`);
  if (scripts.length === 0) return null;
  const file = (url: string) => path.join(buildDir, "client", url);
  return { scripts, jsGzipBytes: scripts.reduce((n, url) => n + gzipSize(file(url)), 0) };
}

/** What a first visit to each route downloads, gzipped, from the build in `buildDir`. */
export async function routeBundles(buildDir = path.resolve("build")): Promise<RouteBundle[]> {
  const server = path.join(buildDir, "server/index.js");
  if (!fs.existsSync(server)) throw new Error(`No build at ${buildDir}: run npm run build first.`);
  const { assets } = (await import(pathToFileURL(server).href)) as { assets: BuildAssets };
  const file = (url: string) => path.join(buildDir, "client", url);
  // The site's stylesheet is linked by the root layout itself (app/root.tsx, a `?url` import), so
  // it is in no route's list of the manifest: every page loads each one the server build names.
  const routeStyles = new Set(Object.values(assets.routes).flatMap((r) => r.css ?? []));
  const layoutStyles = [
    ...new Set(fs.readFileSync(server, "utf8").match(/\/assets\/[\w.-]+\.css/g) ?? []),
  ].filter((url) => !routeStyles.has(url));
  return Object.values(assets.routes)
    .filter((r) => r.id !== "root")
    .map((route) => {
      const chain = [];
      for (
        let r: typeof route | undefined = route;
        r;
        r = r.parentId ? assets.routes[r.parentId] : undefined
      ) {
        chain.push(r);
      }
      const scripts = new Set<string>([assets.entry.module, ...(assets.entry.imports ?? [])]);
      const styles = new Set<string>([...layoutStyles, ...(assets.entry.css ?? [])]);
      for (const r of chain) {
        scripts.add(r.module);
        (r.imports ?? []).forEach((s) => scripts.add(s));
        (r.css ?? []).forEach((s) => styles.add(s));
      }
      const sum = (urls: Set<string>) => [...urls].reduce((n, url) => n + gzipSize(file(url)), 0);
      return {
        route: route.id,
        scripts: [...scripts],
        jsGzipBytes: sum(scripts),
        cssGzipBytes: sum(styles),
      };
    });
}
