import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadContent } from "./load";
import { ContentError } from "./read";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of content/ with `file` changed by `change` (or removed when it answers null). */
function contentWith(file: string, change: (text: string) => string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-content-"));
  dirs.push(dir);
  fs.cpSync("content", dir, { recursive: true });
  const target = path.join(dir, file);
  const changed = change(fs.readFileSync(target, "utf8"));
  if (changed === null) fs.rmSync(target);
  else fs.writeFileSync(target, changed);
  return dir;
}

/** `text` with `from` replaced, failing when `from` is not there (so the case tests what it says). */
const replacing = (from: string | RegExp, to: string) => (text: string) => {
  expect(text).toMatch(from);
  return text.replace(from, to);
};

describe("loadContent", () => {
  it("reads the content directory", () => {
    const content = loadContent("content");
    expect(content.site.name).toBe("San Diego Local Ledger");
    expect(content.faq.topics.map((t) => t.id)).toContain("coverage-areas");
    expect(content.faq.topics[0]?.items[5]?.answer).toContain("recurring topics.\n\nIf you live");
    expect(content.privacyPolicy).toMatchObject({
      title: "Privacy Policy",
      lastUpdated: "April 26, 2025",
      intro: [expect.stringMatching(/^This policy explains what information San Diego Local/)],
    });
    expect(content.privacyPolicy.sections[0]?.list).toHaveLength(5);
    expect(content.terms.lastUpdated).toBeUndefined();
    expect(
      content.about.sections.map((s) => [s.heading, s.paragraphs.length, s.list?.length]),
    ).toEqual([
      ["Our Story", 4, undefined],
      ["Our Mission", 0, 6],
      ["Our Team", 2, undefined],
    ]);
    expect(content.community.poll.options).toHaveLength(5);
  });

  it.each<[string, string, (text: string) => string | null, string]>([
    [
      "a missing field",
      "site.yaml",
      replacing(/^tagline: .*\n/m, ""),
      "content/site.yaml: tagline: missing",
    ],
    [
      "a wrong type",
      "faq.yaml",
      replacing(/answer: "All of San Diego County.*\n/, "answer: [1, 2]\n"),
      "content/faq.yaml: topics[0].items[0].answer: expected a string",
    ],
    [
      "a number for a text",
      "site.yaml",
      replacing("foundingYear: 2020", 'foundingYear: "2020"'),
      "content/site.yaml: foundingYear: expected a number",
    ],
    [
      "an unknown key",
      "events.yaml",
      replacing("    time: 5:30", "    tme: 5:30\n    time: 5:30"),
      "content/events.yaml: featured[0].tme: unknown key",
    ],
    [
      "a bad date",
      "community.yaml",
      replacing("date: 2026-12-05T09:00:00-08:00", "date: December 5"),
      "content/community.yaml: events[0].date: expected an ISO 8601 date and time with its offset, e.g. 2026-12-18T17:30:00-08:00",
    ],
    [
      "bad YAML syntax",
      "partners.yaml",
      replacing("points:", "points: [oops"),
      "content/partners.yaml: Implicit keys of flow sequence pairs need to be on a single line at line 15, column 10",
    ],
    [
      "a repeated key",
      "contact.yaml",
      (text) => `${text}thanks: again\n`,
      "content/contact.yaml: Map keys must be unique at line",
    ],
    [
      "no front matter",
      "privacy.md",
      replacing(/^---\n[\s\S]*?\n---\n/, ""),
      'content/privacy.md: front matter: the file must start with a "---" line, and one must close it',
    ],
    [
      "an unknown front matter key",
      "terms.md",
      replacing("title: Terms", "title: Terms\nauthor: Counsel"),
      "content/terms.md: author: unknown key",
    ],
    [
      "bad front matter YAML",
      "about.md",
      replacing("careers: We", "careers: [We"),
      "content/about.md: Flow sequence",
    ],
    [
      "a heading the body cannot have",
      "terms-of-service.md",
      replacing("## The service", "### The service"),
      'content/terms-of-service.md: body: only paragraphs, "## " headings and a "- " list per section are allowed, not: ### The service',
    ],
    ["an empty file", "sponsors.yaml", () => "", "content/sponsors.yaml: expected an object"],
    [
      "a house ad leading off the site",
      "house-ads.yaml",
      replacing("href: /newsletter", "href: //ads.example.com/"),
      "content/house-ads.yaml: pageBanner.href: expected a path of this site, starting with one /",
    ],
    [
      "a slot without its house ad",
      "house-ads.yaml",
      replacing(/\narticleBox:\n(?: .*\n)+/, "\n"),
      "content/house-ads.yaml: articleBox: missing",
    ],
    [
      "a missing file",
      "local-news.yaml",
      () => null,
      "content/local-news.yaml: cannot be read (ENOENT)",
    ],
  ])("refuses %s in one line naming the file and the field", (_case, file, change, message) => {
    const dir = contentWith(file, change);
    let error: unknown;
    try {
      loadContent(dir);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ContentError);
    const text = (error as Error).message.replace(dir, "content");
    expect(text.split("\n")).toHaveLength(1);
    expect(text.startsWith(message), text).toBe(true);
  });
});
