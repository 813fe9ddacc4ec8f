import { Window } from "happy-dom";
import { describe, expect, it } from "vitest";
import { sanitizeHtml } from "../ingest/sanitize";
import { withVideoPlayers } from "./video-players";

const SITE = "https://news.example.org";
const WATCH = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const link = (href: string, text: string) =>
  sanitizeHtml(`<p><a href="${href}">${text}</a></p>`, SITE);

/** The body as a browser reads it, and each player's poster page (its frame's srcdoc) parsed. */
function parse(html: string) {
  const window = new Window();
  window.document.body.innerHTML = html;
  const frames = [...window.document.querySelectorAll("iframe")];
  const posters = frames.map((frame) => {
    const poster = new Window();
    poster.document.write(frame.getAttribute("srcdoc") ?? "");
    return poster.document;
  });
  return { body: window.document.body, frames, posters };
}

describe("withVideoPlayers", () => {
  it("leaves a body without a standalone YouTube link as it is", () => {
    const html = `<p>Text with <a href="${WATCH}">a video</a> inside.</p>${link("https://example.org/", "Elsewhere")}`;
    expect(withVideoPlayers(html)).toBe(html);
  });

  it("draws the link as a frame whose poster plays the privacy-enhanced player in place", () => {
    const html = `<p>Before.</p>${link(WATCH, "The council meeting")}<p>After.</p>`;
    const { body, frames, posters } = parse(withVideoPlayers(html));
    expect([...body.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
      "Before.",
      "After.",
    ]);
    expect(frames).toHaveLength(1);
    const frame = frames[0];
    expect(frame?.getAttribute("title")).toBe("Video: The council meeting");
    expect(frame?.getAttribute("loading")).toBe("lazy");
    expect(frame?.getAttribute("src")).toBeNull();
    expect(frame?.parentElement?.getAttribute("data-video-state")).toBe("ready");
    const play = posters[0]?.querySelector("a");
    expect(play?.getAttribute("href")).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&controls=1&autoplay=1",
    );
    expect(play?.textContent).toBe("▶Play video: The council meeting");
    expect(posters[0]?.documentElement.getAttribute("lang")).toBe("en");
    expect(posters[0]?.querySelector("title")?.textContent).toBe("The council meeting");
  });

  it("keeps a hostile link text as text, in the frame's name and in its poster", () => {
    const hostile = `"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;`;
    const { frames, posters } = parse(withVideoPlayers(link(WATCH, hostile)));
    const words = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
    expect(frames[0]?.getAttribute("title")).toBe(`Video: ${words}`);
    expect(posters[0]?.querySelectorAll("script, img")).toHaveLength(0);
    expect(posters[0]?.querySelector("a")?.textContent).toBe(`▶Play video: ${words}`);
  });

  it("draws every standalone link of a body, in order", () => {
    const html =
      link(WATCH, "One") + "<p>Between.</p>" + link("https://youtu.be/Cc4Agenda_9", "Two");
    const { frames, body } = parse(withVideoPlayers(html));
    expect(frames.map((f) => f.getAttribute("title"))).toEqual(["Video: One", "Video: Two"]);
    expect(body.textContent).toContain("Between.");
  });
});
