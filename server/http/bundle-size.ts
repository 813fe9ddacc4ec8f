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

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** What a first visit to each route downloads, gzipped, from the build in `buildDir`. */
export async function routeBundles(buildDir = path.resolve("build")): Promise<RouteBundle[]> {
  const server = path.join(buildDir, "server/index.js");
  if (!fs.existsSync(server)) throw new Error(`No build at ${buildDir}: run npm run build first.`);
  const { assets } = (await import(pathToFileURL(server).href)) as { assets: BuildAssets };
  const file = (url: string) => path.join(buildDir, "client", url);
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
      const styles = new Set<string>(assets.entry.css ?? []);
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
