import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticlePicture, StoredPicture } from "../../shared/picture";
import { pictures } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import {
  picturesByUrl,
  shownPicture,
  withShownBody,
  withShownPicture,
  withShownPictures,
} from "./pictures";

reportSkippedPostgres();

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

const KEPT = "https://blog.example.org/photos/harbor.jpg";
const FAILED = "https://blog.example.org/photos/gone.jpg";
const NOT_YET = "https://blog.example.org/photos/new.jpg";
const OWN = "https://news.example.org/images/sample/beach.svg";

const stored: StoredPicture = {
  kind: "stored",
  hash: "a".repeat(64),
  width: 1600,
  height: 1067,
  color: "#33628a",
};

describe("shownPicture", () => {
  const kept = new Map<string, ArticlePicture>([[KEPT, stored]]);
  it.each([
    ["a kept address: our copy", KEPT, stored],
    ["another host's address not kept: none", NOT_YET, null],
    [
      "a path of our own site: as it is",
      "/images/sample/beach.svg",
      { kind: "site", src: "/images/sample/beach.svg" },
    ],
    ["a protocol-relative address: none", "//cdn.example.net/x.jpg", null],
    ["no address: none", null, null],
  ])("%s", (_, image, expected) => {
    expect(shownPicture(image, kept)).toEqual(expected);
  });
});

describe.each(testDatabases())("pictures by address on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await handle.db
      .insert(pictures)
      .values([
        { url: KEPT, picture: stored, hash: stored.hash },
        { url: FAILED, picture: null, lastError: "HTTP 404", consecutiveFailures: 2 },
        { url: NOT_YET },
        { url: OWN, picture: { kind: "site", src: "/images/sample/beach.svg" } },
      ]);
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("answers the usable pictures of the addresses asked for, and no others", async () => {
    const found = await picturesByUrl(handle.db, [KEPT, FAILED, NOT_YET, OWN, KEPT, "https://x/y"]);
    expect([...found.entries()].sort()).toEqual([
      [KEPT, stored],
      [OWN, { kind: "site", src: "/images/sample/beach.svg" }],
    ]);
    expect((await picturesByUrl(handle.db, [NOT_YET])).size).toBe(0);
    expect((await picturesByUrl(handle.db, [])).size).toBe(0);
  });

  it("gives blog posts our copies, keeps site paths and never another host's address", async () => {
    const { logger, lines } = capturingLogger();
    const posts = [
      { slug: "kept", image: KEPT },
      { slug: "failed", image: FAILED },
      { slug: "local", image: "/images/sample/surf.svg" },
      { slug: "none", image: null },
    ];
    const shown = await withShownPictures(handle.db, logger, posts);
    expect(shown.map((p) => [p.slug, p.image, p.picture])).toEqual([
      ["kept", KEPT, stored],
      ["failed", FAILED, null],
      ["local", "/images/sample/surf.svg", { kind: "site", src: "/images/sample/surf.svg" }],
      ["none", null, null],
    ]);
    expect(await withShownPicture(handle.db, logger, { slug: "one", image: KEPT })).toMatchObject({
      picture: stored,
    });
    expect(lines).toEqual([]);
  });

  it("draws a blog body's pictures from our copies and the site's files, and leaves out the rest", async () => {
    const { logger } = capturingLogger();
    const html =
      `<p>One</p><img src="${KEPT}" alt="Harbor"><img src="${NOT_YET}" alt="">` +
      '<img src="https://news.example.org/images/sample/surf.svg" alt="Surf">' +
      '<img src="https://news.example.org/x/onerror=alert(1)" alt="">';
    const shown = await withShownBody(handle.db, logger, html, "https://news.example.org");
    expect(shown).toContain(`/images/${stored.hash}/640.jpg`);
    expect(shown).toContain('<img src="/images/sample/surf.svg" alt="Surf"');
    expect(shown).not.toContain("blog.example.org");
    expect(shown).not.toContain("onerror");
    expect(shown.match(/<img /g)).toHaveLength(2);
  });

  it("keeps site pictures and logs when the pictures cannot be read", async () => {
    const broken = await database.open();
    await broken.migrate();
    await broken.dispose();
    const { logger, lines } = capturingLogger();
    const shown = await withShownPictures(broken.db, logger, [
      { image: KEPT },
      { image: "/images/sample/surf.svg" },
    ]);
    expect(shown.map((p) => p.picture)).toEqual([
      null,
      { kind: "site", src: "/images/sample/surf.svg" },
    ]);
    expect(lines.map((l) => l.msg)).toEqual(["pictures could not be read"]);
  });
});
