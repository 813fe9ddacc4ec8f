import { describe, expect, it } from "vitest";
import { splitBodyVideos, withoutBodyVideos, type BodySegment } from "./body-videos";

/** A paragraph holding only a link, as the sanitiser writes it. */
const linkParagraph = (href: string, text: string) =>
  `<p><a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a></p>`;
const WATCH = "https://www.youtube.com/watch?v=Cc4Agenda_9";

describe("splitBodyVideos", () => {
  it.each<[string, string, BodySegment[]]>([
    ["an empty body", "", []],
    [
      "a body without links",
      "<p>One.</p><p>Two.</p>",
      [{ kind: "html", html: "<p>One.</p><p>Two.</p>" }],
    ],
    [
      "a standalone YouTube link between paragraphs",
      `<p>Before.</p>${linkParagraph(WATCH, "The council meeting")}<p>After.</p>`,
      [
        { kind: "html", html: "<p>Before.</p>" },
        { kind: "video", url: WATCH, title: "The council meeting" },
        { kind: "html", html: "<p>After.</p>" },
      ],
    ],
    [
      "a body that is one video, its address as its text",
      linkParagraph("https://youtu.be/Cc4Agenda_9", "https://youtu.be/Cc4Agenda_9"),
      [{ kind: "video", url: "https://youtu.be/Cc4Agenda_9", title: "YouTube video" }],
    ],
    [
      "escaped addresses and text, read back",
      linkParagraph(
        "https://www.youtube.com/watch?v=Cc4Agenda_9&amp;t=42",
        "Tom &amp; Jerry <strong>live</strong> &gt; all",
      ),
      [
        {
          kind: "video",
          url: "https://www.youtube.com/watch?v=Cc4Agenda_9&t=42",
          title: "Tom & Jerry live > all",
        },
      ],
    ],
    [
      "two videos in a row, shorts and embeds",
      linkParagraph("https://www.youtube.com/shorts/AbCdEfGhIjK", "Short") +
        linkParagraph("https://www.youtube-nocookie.com/embed/AbCdEfGhIjK", "Embed"),
      [
        { kind: "video", url: "https://www.youtube.com/shorts/AbCdEfGhIjK", title: "Short" },
        {
          kind: "video",
          url: "https://www.youtube-nocookie.com/embed/AbCdEfGhIjK",
          title: "Embed",
        },
      ],
    ],
  ])("%s", (_name, html, segments) => {
    expect(splitBodyVideos(html)).toEqual(segments);
  });

  it.each([
    [
      "a link to another site",
      linkParagraph("https://example.org/watch?v=Cc4Agenda_9", "Not YouTube"),
    ],
    [
      "a YouTube address without a video",
      linkParagraph("https://www.youtube.com/@channel", "Channel"),
    ],
    [
      "a link inside a sentence",
      `<p>See <a href="${WATCH}" target="_blank" rel="noopener noreferrer">this</a>.</p>`,
    ],
    [
      "two links in one paragraph",
      `<p><a href="${WATCH}" target="_blank" rel="noopener noreferrer">A</a><a href="${WATCH}" target="_blank" rel="noopener noreferrer">B</a></p>`,
    ],
    ["a paragraph inside a list", `<ul><li>${linkParagraph(WATCH, "In a list")}</li></ul>`],
    ["a paragraph inside a quote", `<blockquote>${linkParagraph(WATCH, "Quoted")}</blockquote>`],
    ["a link the sanitiser did not write", `<p><a href="${WATCH}">Bare</a></p>`],
  ])("keeps %s as HTML", (_name, html) => {
    expect(splitBodyVideos(html)).toEqual([{ kind: "html", html }]);
  });

  it("finds a top-level link after nested blocks, pictures and line breaks", () => {
    const before =
      '<ul><li><p>Item</p></li></ul><figure><img src="/images/x.jpg" alt="x" loading="lazy" /></figure><p>One<br />two</p>';
    expect(splitBodyVideos(`${before}\n${linkParagraph(WATCH, "Video")}\n`)).toEqual([
      { kind: "html", html: `${before}\n` },
      { kind: "video", url: WATCH, title: "Video" },
    ]);
  });

  it("gives back the whole body, in order, around the videos", () => {
    const html = `<h2>A</h2>${linkParagraph(WATCH, "V")}<p>B</p>`;
    const rebuilt = splitBodyVideos(html)
      .map((s) => (s.kind === "html" ? s.html : linkParagraph(s.url, s.title)))
      .join("");
    expect(rebuilt).toBe(html);
  });
});

describe("withoutBodyVideos", () => {
  it("leaves out the standalone video links, and only them", () => {
    const inline = `<p>See <a href="${WATCH}" target="_blank" rel="noopener noreferrer">this</a>.</p>`;
    const html = `<p>Before.</p>${linkParagraph(WATCH, WATCH)}${inline}`;
    expect(withoutBodyVideos(html)).toBe(`<p>Before.</p>${inline}`);
    expect(withoutBodyVideos("<p>No video.</p>")).toBe("<p>No video.</p>");
  });
});
