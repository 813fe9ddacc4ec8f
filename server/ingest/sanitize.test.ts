import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  SANITIZE_POLICY_VERSION,
  sanitizeFragment,
  sanitizeHtml,
  sanitizeOptions,
  stripTags,
} from "./sanitize";
import { splitBodyVideos } from "../../shared/body-videos";

const BASE = "https://news.example.com/section/feed.xml";
const REL = 'target="_blank" rel="noopener noreferrer"';

describe("sanitizeHtml: what is kept", () => {
  it.each([
    ["paragraphs and inline", "<p>A <em>b</em> <strong>c</strong> <b>d</b> <i>e</i></p>"],
    ["lists", "<ul><li>a</li></ul><ol><li>b</li></ol>"],
    ["quotes and code", "<blockquote>q</blockquote><pre><code>x &lt; y</code></pre>"],
    ["headings 2-6", "<h2>a</h2><h3>b</h3><h4>c</h4><h5>d</h5><h6>e</h6>"],
    ["line breaks", "a<br />b"],
    ["spans without attributes", "<span>x</span>"],
  ])("%s", (_name, html) => {
    expect(sanitizeHtml(html, BASE)).toBe(html);
  });

  it.each([
    ["h1 becomes h2", "<h1>Title</h1>", "<h2>Title</h2>"],
    [
      "relative link resolved, opened safely",
      '<a href="../story?id=1&amp;x=2" title="t" target="_self">s</a>',
      `<a href="https://news.example.com/story?id=1&amp;x=2" ${REL}>s</a>`,
    ],
    [
      "protocol-relative link becomes https",
      '<a href="//cdn.example.com/x">x</a>',
      `<a href="https://cdn.example.com/x" ${REL}>x</a>`,
    ],
    [
      "mailto kept",
      '<a href="mailto:tips@example.com">tips</a>',
      `<a href="mailto:tips@example.com" ${REL}>tips</a>`,
    ],
    [
      "image resolved, lazy, only allowed attributes",
      '<img src="/i/a.jpg" alt="A &amp; B" width="640" height="50%" class="big" style="x" srcset="a 1x">',
      '<img src="https://news.example.com/i/a.jpg" alt="A &amp; B" width="640" loading="lazy" />',
    ],
    [
      "figure with caption",
      '<figure><img src="https://i.example.com/a.png"><figcaption>Cap</figcaption></figure>',
      '<figure><img src="https://i.example.com/a.png" loading="lazy" /><figcaption>Cap</figcaption></figure>',
    ],
    ["div and section unwrapped", "<div><section>text</section></div>", "text"],
  ])("%s", (_name, html, expected) => {
    expect(sanitizeHtml(html, BASE)).toBe(expected);
  });
});

describe("sanitizeHtml: hostile input", () => {
  it.each([
    ["script", "<p>a</p><script>alert(1)</script>", "<p>a</p>"],
    // Browsers drop NUL, and one would keep the whole feed out of PostgreSQL.
    [
      "NUL in text and a mail address",
      '<p>a\u0000b<a href="mailto:x\u0000@y.example">m</a></p>',
      '<p>ab<a href="mailto:x@y.example" target="_blank" rel="noopener noreferrer">m</a></p>',
    ],
    ["NUL in plain text", "a\u0000b", "ab"],
    ["script in upper case", "<SCRIPT SRC=//evil.example/x.js></SCRIPT>b", "b"],
    ["style element", "<style>body{background:url(javascript:alert(1))}</style>c", "c"],
    ["event handler", '<p onclick="alert(1)" onmouseover=alert(2)>x</p>', "<p>x</p>"],
    [
      "style attribute / CSS expression",
      '<p style="width: expression(alert(1))">x</p>',
      "<p>x</p>",
    ],
    ["javascript: link", '<a href="javascript:alert(1)">x</a>', "<span>x</span>"],
    ["mixed-case javascript:", '<a href="JaVaScRiPt:alert(1)">x</a>', "<span>x</span>"],
    [
      "leading spaces and controls",
      '<a href=" \u0001\u0008javascript:alert(1)">x</a>',
      "<span>x</span>",
    ],
    ["tab inside the scheme", '<a href="jav&#x09;ascript:alert(1)">x</a>', "<span>x</span>"],
    ["newline inside the scheme", '<a href="jav&#10;ascript:alert(1)">x</a>', "<span>x</span>"],
    ["entity-encoded scheme", '<a href="&#106;&#97;vascript:alert(1)">x</a>', "<span>x</span>"],
    ["null byte inside the scheme", '<a href="java\u0000script:alert(1)">x</a>', "<span>x</span>"],
    ["vbscript: link", '<a href="vbscript:msgbox(1)">x</a>', "<span>x</span>"],
    ["data: link", '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', "<span>x</span>"],
    [
      "mailto with markup",
      '<a href="mailto:a@b.c?x=&quot;&gt;&lt;script&gt;">x</a>',
      "<span>x</span>",
    ],
    ["javascript: image", '<img src="javascript:alert(1)">', ""],
    ["data: image", '<img src="data:image/svg+xml;base64,PHN2Zz4=">', ""],
    ["file: image", '<img src="file:///etc/passwd">', ""],
    [
      "onerror on an image",
      '<img src="https://i.example.com/a.png" onerror="alert(1)">',
      '<img src="https://i.example.com/a.png" loading="lazy" />',
    ],
    ["iframe", '<iframe src="https://evil.example/"></iframe>d', "d"],
    ["object and embed", '<object data="x.swf"><embed src="x.swf"></object>e', "e"],
    [
      "form and input",
      '<form action="https://evil.example/"><input name="a"><button>go</button></form>',
      "go",
    ],
    [
      "svg with onload and script",
      '<svg onload=alert(1)><script>alert(2)</script><a href="https://x.example/">l</a></svg>f',
      "f",
    ],
    ["math", '<math><mi xlink:href="javascript:alert(1)">x</mi></math>g', "g"],
    ["re-forming tags", "<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)"],
    ["nested re-forming", "<<script>script>alert(1)<</script>/script>", "&lt;/script&gt;"],
    ["comment hiding a script", "<!--<script>alert(1)</script>-->h", "h"],
    [
      "base and meta",
      '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example/">i',
      "i",
    ],
    [
      "RTL override and zero-width space in a URL",
      '<a href="https://exa\u202Emple.com/\u200Bpath">x</a>',
      `<a href="https://example.com/path" ${REL}>x</a>`,
    ],
    [
      "attribute breaking out of its quotes",
      '<img src="https://i.example.com/a.png" alt="x&quot; onerror=&quot;alert(1)">',
      '<img src="https://i.example.com/a.png" alt="x&quot; onerror=&quot;alert(1)" loading="lazy" />',
    ],
  ])("%s", (_name, html, expected) => {
    expect(sanitizeHtml(html, BASE)).toBe(expected);
  });
});

describe("stripTags", () => {
  it.each([
    [
      "tags removed, entities decoded",
      "<p>Fish &amp; <b>chips</b> &mdash; &#8220;fresh&#8221;</p>",
      "Fish & chips \u2014 \u201cfresh\u201d",
    ],
    [
      "script and style contents dropped",
      "a<script>var x = '<b>';</script><style>p{}</style>b",
      "ab",
    ],
    [
      "blocks separated by spaces",
      "<p>One</p><p>Two</p><ul><li>Three</li></ul>Four<br>Five",
      "One Two Three Four Five",
    ],
    ["whitespace collapsed", "  a \n\t b\u00a0 c  ", "a b c"],
    ["escaped markup stays text", "&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"],
    ["bidi overrides and zero-width spaces removed", "a\u202Eb\u200Bc", "abc"],
    ["plain text untouched", "Plain title", "Plain title"],
  ])("%s", (_name, html, expected) => {
    expect(stripTags(html)).toBe(expected);
  });
});

describe("markup read as browsers' tokenizers read it", () => {
  // [fragment, sanitised, text], as sanitize-html (htmlparser2) reads them.
  it.each([
    ["a namespaced block tag still separates words", "a<p:x>b", "ab", "a b"],
    ["a closing tag with nothing to close still separates words", "a</div>b", "ab", "a b"],
    ["</ p> opens and closes a paragraph but is no word boundary", "a</ p>b", "a<p></p>b", "ab"],
    ["a `<` inside a tag name", "<b<p>x</b>y", "xy", "xy"],
    ["a `<` inside a script tag name", "a<script<p>hello", "ahello", "a"],
    ["</> is text", "one</>two", "one&lt;/&gt;two", "one</>two"],
    ["a `<` before a tag is text", "x<<p>y", "x&lt;<p>y</p>", "x< y"],
    ["<xitle> is a raw-text title element", "<xitle>t &amp; u</title>v", "t &amp; uv", "t & uv"],
    [
      "<tmp> is raw text up to </xmp>",
      "<tmp><b>raw</b></xmp>after",
      "&lt;b&gt;raw&lt;/b&gt;after",
      "<b>raw</b>after",
    ],
    ["self-closing tags inside svg", "<svg><a/>x</svg>y", "y", "y"],
    [
      "upper case and implied closes",
      "<P>One<DIV>Two</DIV></P>",
      "<p>One</p>Two<p></p>",
      "One Two",
    ],
    [
      "legacy entities in text",
      "a&ampb &notit; &copy c",
      "a&amp;b \u00acit; \u00a9 c",
      "a&b \u00acit; \u00a9 c",
    ],
    ["short comments", "<!-->x<!--->y", "xy", "xy"],
    ["</br> is a line break", "<p>a</br>b</p>", "<p>a<br />b</p>", "a b"],
    ["option text is dropped", "<option>o</option><p>p</p>", "<p>p</p>", "p"],
    ["h1 becomes h2", "<h1>t</h1><pre>p</pre>", "<h2>t</h2><pre>p</pre>", "t p"],
    [
      "an image with an empty alt",
      '<a href="/x">l</a><img src="/i.png" alt="">',
      '<a href="https://news.example.com/x" target="_blank" rel="noopener noreferrer">l</a><img src="https://news.example.com/i.png" alt="" loading="lazy" />',
      "l",
    ],
    ["a block tag inside kept raw text", "<xitle><script<p>", "&lt;script&lt;p&gt;", "<script <p>"],
    ["raw text up to </xmp>, spaced out", "<tmp>a<p>b</xmp>c", "a&lt;p&gt;bc", "a <p>bc"],
    ["a block tag inside an unquoted value, in svg", "<svg a=b<p/>hello", "", "hello"],
    ["a block tag inside an unquoted value", '<a b=c<p="x>y">z', '<span>y"&gt;z</span>', "z"],
    ["a fragment cut inside a tag", "<p>kept</p><a href=", "<p>kept</p>", "kept"],
    ["a fragment cut inside a comment", "<p>kept</p><!-- cut", "<p>kept</p>", "kept"],
    ["a fragment cut inside a script", "<p>kept</p><script>x", "<p>kept</p>", "kept"],
  ])("%s", (_name, fragment, html, text) => {
    expect([sanitizeHtml(fragment, BASE), stripTags(fragment)]).toEqual([html, text]);
    // hasText is about the sanitised HTML, which can lose text the plain reading keeps (see svg).
    expect(sanitizeFragment(fragment, BASE)).toEqual({
      html,
      text,
      hasText: stripTags(html) !== "",
    });
  });

  it("says whether the sanitised HTML has text", () => {
    expect(sanitizeFragment("<script>x</script><img src=/a.png>", BASE)).toEqual({
      html: '<img src="https://news.example.com/a.png" loading="lazy" />',
      text: "",
      hasText: false,
    });
    expect(sanitizeFragment("\u200b &nbsp;", BASE).hasText).toBe(false);
  });
});

describe("addresses too long to keep", () => {
  it("drops a picture and unlinks a link whose address is over 2,048 characters", () => {
    const long = `https://x.example/${"a".repeat(2100)}`;
    const html = sanitizeHtml(`<p><a href="${long}">Read</a><img src="${long}" alt="x"></p>`, BASE);
    expect(html).toBe("<p><span>Read</span></p>");
  });
});

describe("SANITIZE_POLICY_VERSION", () => {
  it("moves with the policy", () => {
    // The options sanitize-html gets, functions by their code. Changed the policy? Bump
    // SANITIZE_POLICY_VERSION and write the new version and hash here, so stored articles are
    // sanitised again. (A new transpiler can change the code's text alone: then only the hash moves.)
    const options = JSON.stringify(sanitizeOptions(BASE), (_key, value: unknown) =>
      typeof value === "function" ? value.toString() : value,
    );
    const hash = createHash("sha256").update(options).digest("hex").slice(0, 16);
    expect({ version: SANITIZE_POLICY_VERSION, hash }).toEqual({
      version: 2,
      hash: "0bb7a4850fe32fa9",
    });
  });
});

describe("sanitizeHtml and the body's videos", () => {
  it("writes a pasted video address on a line of its own as shared/body-videos.ts reads it", () => {
    const html = sanitizeHtml(
      `<p>Watch it:</p><p><a href="https://youtu.be/Cc4Agenda_9?si=x&t=3">https://youtu.be/Cc4Agenda_9</a></p>`,
      BASE,
    );
    expect(splitBodyVideos(html)).toEqual([
      { kind: "html", html: "<p>Watch it:</p>" },
      { kind: "video", url: "https://youtu.be/Cc4Agenda_9?si=x&t=3", title: "YouTube video" },
    ]);
  });
});
