import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requireBuild } from "./test-build";

/**
 * Fonts (docs/decisions/011-system-fonts.md): none from another host, and any font the site ships is
 * its own fingerprinted asset with `font-display: swap`, preloaded by the pages. Checked on the build.
 */
const ASSETS = path.resolve("build/client/assets");
requireBuild(ASSETS);

function stylesheets(): { file: string; css: string }[] {
  return fs
    .readdirSync(ASSETS)
    .filter((file) => file.endsWith(".css"))
    .map((file) => ({ file, css: fs.readFileSync(path.join(ASSETS, file), "utf8") }));
}

const FONT_HOSTS = /fonts\.googleapis\.com|fonts\.gstatic\.com|use\.typekit\.net|fonts\.bunny\.net/;

describe("fonts in the production build", () => {
  it("loads no stylesheet or font from another host", () => {
    for (const { file, css } of stylesheets()) {
      expect(css, file).not.toMatch(FONT_HOSTS);
      expect(css, file).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//);
    }
  });

  it("gives every @font-face a local source and font-display: swap", () => {
    for (const { file, css } of stylesheets()) {
      for (const face of css.match(/@font-face\s*{[^}]*}/g) ?? []) {
        expect(face, file).toMatch(/font-display:\s*swap/);
        for (const [, url] of face.matchAll(/url\(\s*["']?([^"')]+)/g)) {
          expect(url, file).toMatch(/^\/assets\/[^/]+\.woff2$/);
        }
      }
    }
  });

  it("sets text in the system font stack when it ships no font", () => {
    const faces = stylesheets().flatMap(({ css }) => css.match(/@font-face/g) ?? []);
    if (faces.length === 0) {
      const css = stylesheets()
        .map((s) => s.css)
        .join("\n");
      expect(css).toMatch(/--font-sans:\s*system-ui/);
    }
  });

  it("preloads the first font the site ships, if any", () => {
    const root = fs.readFileSync(path.resolve("app/root.tsx"), "utf8");
    const fonts = fs.readdirSync(ASSETS).filter((file) => file.endsWith(".woff2"));
    if (fonts.length > 0) expect(root).toMatch(/rel:\s*"preload"[^}]*as:\s*"font"/);
    else expect(root).not.toMatch(/as:\s*"font"/);
  });
});
