import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { StoredPicture } from "../../shared/picture";
import { ArticleImage } from "./ArticleImage";
import { PICTURE_SLOTS } from "./picture-slots";

const HASH = "cd".repeat(32);
const portrait: StoredPicture = {
  kind: "stored",
  hash: HASH,
  width: 900,
  height: 1600,
  color: "#405060",
};

function draw(picture: StoredPicture, slot: keyof typeof PICTURE_SLOTS) {
  const html = renderToString(
    <ArticleImage
      picture={picture}
      alt="A picture"
      slot={PICTURE_SLOTS[slot]}
      width={640}
      height={360}
    />,
  );
  const img = /<img [^>]*>/.exec(html)?.[0] ?? "";
  return { html, img };
}

describe("ArticleImage", () => {
  it("draws a picture without a focus as before: centred copies, no object-position", () => {
    const { html, img } = draw(portrait, "cardThreeColumns");
    expect(html).toContain(`/images/${HASH}/wide-480.avif 480w`);
    expect(html).not.toContain("-f");
    expect(img).toContain('style="background-color:#405060"');
  });

  it("names the copies cut around a picture's focus, and keeps it in a box of other proportions", () => {
    const focused = { ...portrait, focus: { x: 30, y: 88 } };
    const card = draw(focused, "cardThreeColumns");
    expect(card.html).toContain(`/images/${HASH}/wide-f30x90-480.avif 480w`);
    expect(card.img).toContain(`src="/images/${HASH}/wide-f30x90-480.jpg"`);
    // The bottom 16:9 of the picture: the focus lies 62 % down it.
    expect(card.img).toContain("object-position:30% 62%");
    // The community's top story: whole copies in a 400 px tall box, covered around the focus.
    const hero = draw(focused, "communityHero");
    expect(hero.html).toContain(`/images/${HASH}/480.avif 480w`);
    expect(hero.img).toContain("object-position:30% 88%");
  });
});
