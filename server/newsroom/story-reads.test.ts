import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { articles, corrections, staffAudit } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { upsertArticle, type NewArticle } from "../news/repository";
import { searchSite } from "../news/search";
import type { NewsroomServices } from "./action";
import { addCorrection, retractCorrection } from "./corrections";
import { restore, setHeadline, takeDown } from "./stories";
import { listStories, siteLink, storyDetail } from "./story-reads";

reportSkippedPostgres();

const editor = { id: 1, email: "editor@example.org" };
const LONG_AGO = new Date("2026-11-20T12:00:00Z");

function story(id: string, title: string, excerpt: string, hoursAgo: number): NewArticle {
  return {
    id,
    category: "local-news",
    link: `https://sample.example.org/${id}`,
    title,
    excerpt,
    content: `<p>${excerpt}</p>`,
    image: null,
    author: "Staff Writer",
    publishedAt: new Date(Date.now() - hoursAgo * 3600_000),
    updatedAt: LONG_AGO,
  };
}

const PICTURE = {
  kind: "stored",
  hash: "c".repeat(64),
  width: 1200,
  height: 800,
  color: "#335577",
} as const;

const STORIES = [
  story(
    "kelp-forest",
    "Divers count fish off La Jolla",
    "Kelp forests grew back after warm years.",
    1,
  ),
  story("harbor-budget", "Harbor budget passes", "The port board voted 5 to 2.", 2),
  story("kelp-harvest", "Kelp harvest paused", "The state paused the harvest.", 3),
  {
    ...story("kelp-festival", "A festival of kelp", "Chefs cook with kelp on the pier.", 4),
    picture: PICTURE,
  },
];

const query = (q: string, status: "all" | "down" = "all") =>
  ({ query: q, category: null, status, page: 1 }) as const;
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.each(testDatabases())("the newsroom's story list and story page on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let services: NewsroomServices;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = { db: handle.db, announceChange: () => handle.announceChange() };
  });
  afterAll(() => handle?.dispose());
  beforeEach(async () => {
    await handle.db.delete(corrections);
    await handle.db.delete(staffAudit);
    await handle.db.delete(articles);
    for (const s of STORIES) await upsertArticle(handle.db, s);
  });

  const ids = (list: { id: string }[]) => list.map((s) => s.id);
  const readersFind = async (q: string) =>
    (await searchSite(handle.db, q, { page: 1 })).hits.flatMap((hit) =>
      hit.kind === "article" ? [hit.id] : [],
    );

  it("finds a word of a story's text, not its headline, as readers' search does", async () => {
    // "forest" is only in the excerpt, as "forests": full-text search finds it, a headline match would not.
    expect(await readersFind("forest")).toEqual(["kelp-forest"]);
    const found = await listStories(handle.db, query("forest"));
    expect(ids(found.stories)).toEqual(["kelp-forest"]);
    expect(found.total).toBe(1);
  });

  it("lists readers' results first, in their order, then stories only staff can see", async () => {
    await takeDown(services, editor, "kelp-harvest", "Legal request");
    const readers = await readersFind("kelp");
    expect(readers).not.toContain("kelp-harvest");
    const found = await listStories(handle.db, query("kelp"));
    expect(ids(found.stories)).toEqual([...readers, "kelp-harvest"]);
    expect(found.total).toBe(3);
    expect(found.stories.at(-1)).toMatchObject({ down: true, siteLink: null });
    // Each with the picture readers see, for its thumbnail.
    expect(found.stories.find((s) => s.id === "kelp-festival")?.picture).toEqual(PICTURE);
    expect(ids((await listStories(handle.db, query("kelp", "down"))).stories)).toEqual([
      "kelp-harvest",
    ]);
    // By id or link, whatever the words.
    expect(ids((await listStories(handle.db, query("harbor-budget"))).stories)).toEqual([
      "harbor-budget",
    ]);
    expect(
      ids(
        (await listStories(handle.db, query("https://sample.example.org/kelp-festival"))).stories,
      ),
    ).toEqual(["kelp-festival"]);
  });

  it("takes a NUL or other control character in the search as a space", async () => {
    expect(ids((await listStories(handle.db, query("forest\u0000"))).stories)).toEqual([
      "kelp-forest",
    ]);
    expect((await listStories(handle.db, query("\u0000"))).total).toBe(STORIES.length);
    expect(await storyDetail(handle.db, "kelp-forest\u0000")).toBeUndefined();
    expect(await takeDown(services, editor, "kelp\u0000", "Legal request")).toMatchObject({
      ok: false,
    });
  });

  it("gives each story a thumbnail and a site address that changes with every change", async () => {
    const link = async () => (await storyDetail(handle.db, "harbor-budget"))?.siteLink;
    const first = await link();
    expect(first).toBe(siteLink("harbor-budget", LONG_AGO));
    expect(first).toBe(`/article/harbor-budget?v=${LONG_AGO.getTime()}`);
    const listed = (await listStories(handle.db, query(""))).stories.find(
      (s) => s.id === "harbor-budget",
    );
    expect(listed).toMatchObject({ siteLink: first, picture: null });

    const seen = new Set([first]);
    const changes: (() => Promise<unknown>)[] = [
      () => addCorrection(services, editor, "harbor-budget", "The vote was 5 to 2, not 6 to 1."),
      () => setHeadline(services, editor, "harbor-budget", "Harbor budget passes, 5 to 2"),
      async () => {
        const [c] = await handle.db.select({ id: corrections.id }).from(corrections);
        return retractCorrection(services, editor, "harbor-budget", c?.id ?? 0);
      },
    ];
    for (const change of changes) {
      await pause();
      expect(await change()).toMatchObject({ ok: true });
      const next = await link();
      expect(next).toMatch(/^\/article\/harbor-budget\?v=\d+$/);
      expect(seen).not.toContain(next);
      seen.add(next);
    }
    await pause();
    await takeDown(services, editor, "harbor-budget", "Legal request");
    expect(await link()).toBeNull();
    await pause();
    await restore(services, editor, "harbor-budget");
    const restored = await link();
    expect(restored).toMatch(/^\/article\/harbor-budget\?v=\d+$/);
    expect(seen).not.toContain(restored);

    // The feed's own update counts too.
    await pause();
    const harbor = STORIES.find((s) => s.id === "harbor-budget");
    if (!harbor) throw new Error("no harbor story");
    await upsertArticle(handle.db, { ...harbor, excerpt: "The port board voted 5 to 2 again." });
    expect(await link()).not.toBe(restored);
  });
});
