/**
 * `npm run bench:bundle`: what a first visit to each page downloads, gzipped, from the production
 * build (run `npm run build` first), against the budgets of the home and article pages; and, on a
 * line of its own, the newsroom's rich body editor, which its page fetches once hydrated.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { editorBundle, JS_BUDGETS, routeBundles } from "../server/http/bundle-size";
import { formatMarkdownTable, machineLine, writeSection } from "../server/test-support/report";

const KB = 1024;
const BUDGETS: Record<string, number | undefined> = JS_BUDGETS;

const bundles = (await routeBundles()).sort((a, b) => b.jsGzipBytes - a.jsGzipBytes);
const shared = bundles.reduce<string[] | null>(
  (common, b) => (common ? common.filter((s) => b.scripts.includes(s)) : b.scripts),
  null,
);
const sharedBytes = (shared ?? []).reduce(
  (n, url) =>
    n +
    zlib.gzipSync(fs.readFileSync(path.resolve("build/client", `.${url}`)), { level: 9 }).length,
  0,
);
// Not a page: measured apart from them, and never part of what any page loads first.
const editor = await editorBundle();
const EDITOR_LINE = "newsroom editor (loaded on the editor page only)";
const table = formatMarkdownTable(
  ["route", "JS (gzip)", "CSS (gzip)", "scripts", "budget"],
  [
    ...bundles.map((b) => {
      const budget = BUDGETS[b.route];
      return [
        b.route,
        `${(b.jsGzipBytes / KB).toFixed(1)} KB`,
        `${(b.cssGzipBytes / KB).toFixed(1)} KB`,
        b.scripts.length,
        budget ? `${budget / KB} KB: ${b.jsGzipBytes <= budget ? "within" : "OVER"}` : "",
      ];
    }),
    editor
      ? [EDITOR_LINE, `${(editor.jsGzipBytes / KB).toFixed(1)} KB`, "", editor.scripts.length, ""]
      : [EDITOR_LINE, "not in this build: no page uses it yet", "", 0, ""],
  ],
);
const body = `Machine: ${machineLine()}\n\n${table}\n\nEvery page shares ${(sharedBytes / KB).toFixed(1)} KB of it (React, React Router and the page shell). Each script is gzipped on its own at level 9, as a browser receives it; brotli, which the site prefers, is smaller still. The newsroom editor (Tiptap and ProseMirror) is fetched after its page has hydrated, on top of that page's first visit; no reader page loads it (server/http/bundle-size.test.ts).`;
console.log(body);
await writeSection("bundle", "Client JavaScript (`npm run bench:bundle`)", body);
