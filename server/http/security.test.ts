import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { newNonce, nonceScriptHashes, pagePolicy } from "./security";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("nonceScriptHashes", () => {
  const nonce = newNonce();
  const context = "window.__reactRouterContext = {};";
  const loader = ';\nimport * as route0 from "/assets/root-B86Q6oo8.js";\n';

  it("hashes the scripts that carry the render's nonce, whatever they say, and nothing else", () => {
    const html = [
      `<script nonce="${nonce}">${context}</script>`,
      `<script type="module" nonce="${nonce}" async="">${loader}</script>`,
      `<script src="/assets/app.js" nonce="${nonce}"></script>`,
      '<script type="application/ld+json">{"@type":"WebSite"}</script>',
      `<script nonce="${nonce}">${context}</script>`,
      `<article><script>${context}</script><script nonce="${newNonce()}">alert(1)</script></article>`,
    ].join("");
    expect(nonceScriptHashes(Buffer.from(html), nonce)).toEqual([
      sha(context),
      sha(loader),
      sha(""),
    ]);
  });

  it("hashes a page's UTF-8 bytes as the browser does, characters beyond ASCII included", () => {
    // Loader data as React Router streams it: a string literal holding the page's text as it is.
    const data = `window.__reactRouterContext.streamController.enqueue("[\\"Café — “Old Town” 🌮 ✓\\"]");`;
    const html = [
      `<title>Café — “Old Town”</title>`,
      `<script nonce="${nonce}">${data}</script>`,
      `<p>Niño’s <script>alert("ü")</script></p>`,
    ].join("");
    const bytes = Buffer.from(html, "utf8");
    expect(bytes.length).toBeGreaterThan(html.length);
    expect(nonceScriptHashes(bytes, nonce)).toEqual([sha(data)]);
  });

  it("makes a new nonce of 128 random bits each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const made of nonces) expect(Buffer.from(made, "base64url")).toHaveLength(16);
  });
});

describe("pagePolicy", () => {
  it("allows our scripts and the configured providers only", () => {
    const config = parseConfig({
      SITE_URL: "https://news.example.org",
      AD_SCRIPT_URL: "https://ads.example.net/serve.js?zone={slot}",
      FEED_WALL_EMBED_URL: "https://wall.example.com/embed/1",
    });
    const policy = pagePolicy(["'nonce-abc'"], config);
    expect(policy).toContain("script-src 'self' 'nonce-abc' https://ads.example.net;");
    expect(policy).toContain(
      "frame-src 'self' https://www.youtube-nocookie.com https://wall.example.com;",
    );
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // Pictures from our own origin and the ad provider's only: no scheme-wide source, no data:.
    expect(policy).toContain("img-src 'self' https://ads.example.net;");
    expect(policy).toContain("upgrade-insecure-requests");
  });

  it("allows the ad provider's further origins while ads are on, and only then", () => {
    const env = {
      SITE_URL: "https://news.example.org",
      AD_PROVIDER_ORIGINS: "https://cdn.ads.example.net,https://frames.ads.example.net",
    };
    const further = "https://cdn.ads.example.net https://frames.ads.example.net";
    const withAds = pagePolicy(
      [],
      parseConfig({ ...env, AD_SCRIPT_URL: "https://ads.example.net/serve.js?zone={slot}" }),
    );
    expect(withAds).toContain(`script-src 'self' https://ads.example.net ${further};`);
    expect(withAds).toContain(`connect-src 'self' ${further};`);
    expect(withAds).toContain(`frame-src 'self' https://www.youtube-nocookie.com ${further};`);
    expect(withAds).toContain(`img-src 'self' https://ads.example.net ${further};`);

    const placeholders = pagePolicy([], parseConfig(env));
    expect(placeholders).not.toContain("ads.example.net");
    expect(placeholders).toContain("script-src 'self'; ");
    expect(placeholders).toContain("connect-src 'self'; ");
    expect(placeholders).toContain("img-src 'self'; ");
  });
});
