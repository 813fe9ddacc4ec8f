import { describe, expect, it } from "vitest";
import { privacyPlayerUrl, youtubeVideoId } from "./video";

describe("youtubeVideoId", () => {
  it.each([
    ["https://youtu.be/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?t=42", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=1s", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?v=a_b-C1d2E3f", "a_b-C1d2E3f"],
    ["https://www.youtube.com/shorts/AbCdEfGhIjK", "AbCdEfGhIjK"],
    ["https://youtube.com/shorts/AbCdEfGhIjK?si=xyz", "AbCdEfGhIjK"],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["  https://youtu.be/dQw4w9WgXcQ  ", "dQw4w9WgXcQ"],
  ])("finds the id in %s", (address, id) => {
    expect(youtubeVideoId(address)).toBe(id);
  });

  it.each([
    ["https://youtu.be/short"],
    ["https://youtu.be/dQw4w9WgXcQextra"],
    ["https://www.youtube.com/watch?v=bad$chars!!"],
    ["https://www.youtube.com/watch"],
    ["https://www.youtube.com/channel/UCabcdefghijk"],
    ["https://vimeo.com/dQw4w9WgXcQ"],
    ["https://evil.example/watch?v=dQw4w9WgXcQ"],
    ["javascript:alert(1)//youtu.be/dQw4w9WgXcQ"],
    ["not a url"],
    [""],
    [null],
  ])("finds no id in %s", (address) => {
    expect(youtubeVideoId(address)).toBeNull();
  });

  it("builds the privacy-enhanced player address", () => {
    expect(privacyPlayerUrl("dQw4w9WgXcQ")).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&controls=1",
    );
    expect(privacyPlayerUrl("dQw4w9WgXcQ", true)).toContain("&autoplay=1");
  });
});
