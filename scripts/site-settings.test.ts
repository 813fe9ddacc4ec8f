import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "../server/config";
import { SITE_SETTINGS, withoutSiteSettings } from "./site-settings.js";

describe("the site's settings, as tools that start a copy of the site leave them out", () => {
  it("are every variable the site's configuration reads, and no other", () => {
    expect([...SITE_SETTINGS].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("are left out of the shell's environment; the rest of it stays", () => {
    const shell = {
      PATH: "/usr/bin",
      HOME: "/root",
      DATABASE_URL: "postgres://news@db/news",
      AD_SCRIPT_URL: "https://ads.example.com/{slot}.js",
      BLOG_API_KEY: "secret",
      PAGE_CACHE_MB: "0",
    };
    expect(withoutSiteSettings(shell)).toEqual({ PATH: "/usr/bin", HOME: "/root" });
  });
});
