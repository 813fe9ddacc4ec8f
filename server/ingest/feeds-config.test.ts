import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FeedsConfigError, loadFeedSources } from "./feeds-config";

function write(content: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "feeds-")), "feeds.json");
  fs.writeFileSync(file, content);
  return file;
}

describe("loadFeedSources", () => {
  it("reads categories and addresses in registry order", () => {
    const file = write(
      JSON.stringify({
        politics: ["https://example.org/politics.xml"],
        "local-news": [
          "https://example.org/a.xml",
          "fixtures/feeds/local-news.xml",
          "file:///tmp/x.xml",
        ],
      }),
    );
    expect(loadFeedSources(file)).toEqual([
      { url: "https://example.org/a.xml", category: "local-news" },
      { url: "fixtures/feeds/local-news.xml", category: "local-news" },
      { url: "file:///tmp/x.xml", category: "local-news" },
      { url: "https://example.org/politics.xml", category: "politics" },
    ]);
  });

  it.each([
    [{ entertainment: ["https://example.org/x.xml"] }, 'unknown category "entertainment"'],
    [{ community: ["https://example.org/x.xml"] }, 'unknown category "community"'],
    [{ sports: ["ftp://example.org/x.xml"] }, "sports.0: must be an http(s) URL"],
    [{ sports: ["https://"] }, "sports.0: must be an http(s) URL"],
    [{ sports: "https://example.org/x.xml" }, "sports"],
    [
      { sports: ["https://example.org/x.xml"], food: ["https://example.org/x.xml"] },
      "listed twice",
    ],
  ])("rejects %j with a clear reason", (content, reason) => {
    const file = write(JSON.stringify(content));
    expect(() => loadFeedSources(file)).toThrow(FeedsConfigError);
    expect(() => loadFeedSources(file)).toThrow(reason);
  });

  it("rejects a file that is not JSON", () => {
    const file = write("{ not json");
    expect(() => loadFeedSources(file)).toThrow(`Invalid feeds file ${file}`);
  });

  it.each(["config/feeds.json", "config/feeds.sample.json"])("accepts the bundled %s", (file) => {
    const sources = loadFeedSources(file);
    expect(sources.length).toBeGreaterThanOrEqual(16);
    expect(new Set(sources.map((s) => s.category)).size).toBe(16);
  });
});
