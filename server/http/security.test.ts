import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { inlineScriptHashes, pagePolicy } from "./security";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("hashes scripts written into the page, not loaded ones nor data blocks", () => {
    const html = [
      "<script>window.a = 1;</script>",
      '<script type="module">import "/assets/x.js";</script>',
      '<script src="/assets/app.js"></script>',
      '<script type="application/ld+json">{"@type":"WebSite"}</script>',
      "<script>window.a = 1;</script>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha("window.a = 1;"), sha('import "/assets/x.js";')]);
  });
});

describe("pagePolicy", () => {
  it("allows our scripts and the configured providers only", () => {
    const config = parseConfig({
      SITE_URL: "https://news.example.org",
      AD_SCRIPT_URL: "https://ads.example.net/serve.js?zone={slot}",
      FEED_WALL_EMBED_URL: "https://wall.example.com/embed/1",
    });
    const policy = pagePolicy("<script>go()</script>", config);
    expect(policy).toContain(`script-src 'self' ${sha("go()")} https://ads.example.net;`);
    expect(policy).toContain(
      "frame-src https://www.youtube-nocookie.com https://wall.example.com;",
    );
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("upgrade-insecure-requests");
  });
});
