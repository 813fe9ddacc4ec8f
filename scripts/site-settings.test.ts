import { describe, expect, it, vi } from "vitest";
import { CONFIG_VARIABLES } from "../server/config";
import { sampleSiteEnv } from "./sample-site.js";
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

  it("are the tool's own in a sample site's environment, none of them the shell's", () => {
    vi.stubEnv("DATABASE_URL", "postgres://news@db/news");
    vi.stubEnv("PAGE_CACHE_MB", "0");
    vi.stubEnv("FEEDS_FILE", "/srv/news/feeds.json");
    try {
      const env = sampleSiteEnv(3456, "/tmp/sample-data", { PAGE_CACHE_SECONDS: "5" });
      expect(env).toMatchObject({
        NODE_ENV: "production",
        SITE_URL: "http://127.0.0.1:3456",
        PORT: "3456",
        DATA_DIR: "/tmp/sample-data",
        FEEDS_FILE: "config/feeds.sample.json",
        INGEST_INTERVAL_MINUTES: "0",
        PAGE_CACHE_SECONDS: "5",
        PATH: process.env.PATH,
      });
      expect(env).not.toHaveProperty("DATABASE_URL");
      expect(env).not.toHaveProperty("PAGE_CACHE_MB");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
