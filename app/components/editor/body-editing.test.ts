import { describe, expect, it } from "vitest";
import { carriesOnlyFiles, isBodyLinkAddress, linkAnswer, videoAnswer } from "./body-editing";

describe("linkAnswer", () => {
  it.each([
    [
      "https://www.sandiegouniontribune.com/news",
      { kind: "set", href: "https://www.sandiegouniontribune.com/news" },
    ],
    ["  http://example.com/a?b=1#c  ", { kind: "set", href: "http://example.com/a?b=1#c" }],
    ["/article/42", { kind: "set", href: "/article/42" }],
    ["/", { kind: "set", href: "/" }],
    ["", { kind: "remove" }],
    ["   ", { kind: "remove" }],
  ])("%j asks for %j", (input, expected) => {
    expect(linkAnswer(input)).toEqual(expected);
  });

  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "//evil.example/path",
    "/\\evil.example",
    "/a path with spaces",
    "example.com",
    "ftp://example.com/file",
    "mailto:desk@example.com",
    "https://",
    "article/42",
  ])("refuses %j", (input) => {
    expect(linkAnswer(input).kind).toBe("invalid");
  });
});

describe("isBodyLinkAddress: the links kept from a body or a paste", () => {
  it.each([
    ["https://example.com", true],
    ["/blog/a-post", true],
    ["mailto:desk@example.com", true],
    ['mailto:desk@example.com"onmouseover=x', false],
    ["javascript:alert(1)", false],
    ["//evil.example", false],
    ["tel:+16195550100", false],
  ])("%j: %s", (address, kept) => {
    expect(isBodyLinkAddress(address)).toBe(kept);
  });
});

describe("videoAnswer", () => {
  it.each([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtu.be/dQw4w9WgXcQ",
    "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    " https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=30 ",
  ])("takes %j", (input) => {
    expect(videoAnswer(input)).toEqual({ kind: "set", href: input.trim() });
  });

  it.each([
    "",
    "https://vimeo.com/76979871",
    "https://www.youtube.com/watch?v=short",
    "https://www.youtube.com/channel/UC123",
    "javascript:alert('https://youtu.be/dQw4w9WgXcQ')",
  ])("refuses %j", (input) => {
    expect(videoAnswer(input).kind).toBe("invalid");
  });
});

describe("carriesOnlyFiles: drops and pastes the editor refuses", () => {
  it.each([
    [["Files"], true],
    [["Files", "application/x-moz-file"], true],
    [["Files", "text/html", "text/plain"], false],
    [["Files", "text/uri-list"], false],
    [["text/html", "text/plain"], false],
    [[], false],
  ])("%j: %s", (types, refused) => {
    expect(carriesOnlyFiles({ types })).toBe(refused);
  });

  it("lets an event without a transfer through", () => {
    expect(carriesOnlyFiles(null)).toBe(false);
  });
});
