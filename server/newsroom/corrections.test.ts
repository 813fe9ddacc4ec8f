import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { articles, corrections, staffAudit } from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { correctionsOf, latestCorrections, upsertArticle } from "../news/repository";
import type { NewsroomServices } from "./action";
import { addCorrection, editCorrection, retractCorrection, storyCorrections } from "./corrections";

reportSkippedPostgres();

const editor = { id: 1, email: "editor@example.org" };
const chief = { id: 2, email: "chief@example.org" };
const STORY = "harbor-budget";
const OTHER = "ferry-returns";

describe.each(testDatabases())("corrections edited and retracted on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let services: NewsroomServices;
  let announced = 0;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    services = {
      db: handle.db,
      announceChange: async () => {
        announced++;
        await handle.announceChange();
      },
    };
  });
  afterAll(() => handle?.dispose());
  beforeEach(async () => {
    await handle.db.delete(corrections);
    await handle.db.delete(staffAudit);
    await handle.db.delete(articles);
    for (const id of [STORY, OTHER]) {
      await upsertArticle(handle.db, {
        id,
        category: "local-news",
        link: `https://sample.example.org/${id}`,
        title: `Story ${id}`,
        excerpt: "Nothing to see.",
        content: "<p>Body</p>",
        image: null,
        author: "Staff Writer",
        publishedAt: new Date("2026-11-20T12:00:00Z"),
      });
    }
  });

  const onlyCorrectionId = async () => {
    const [row] = await handle.db.select({ id: corrections.id }).from(corrections);
    if (!row) throw new Error("no correction");
    return row.id;
  };
  const audit = async () =>
    (await handle.db.select().from(staffAudit).orderBy(staffAudit.id)).map((e) => ({
      who: e.staffEmail,
      action: e.action,
      subject: e.subject,
      before: e.before,
      after: e.after,
    }));

  it("rewords a correction on the story and at /corrections, keeping its date", async () => {
    const date = new Date("2026-11-21T18:00:00Z");
    await addCorrection(services, editor, STORY, "The vote was 5 to 4, not 4 to 5.", date);
    const id = await onlyCorrectionId();
    const before = announced;

    expect(
      await editCorrection(services, chief, STORY, id, "  The vote was  6 to 3, not 4 to 5. "),
    ).toEqual({ ok: true, message: "The correction is changed." });
    expect(announced).toBe(before + 1);
    expect(await correctionsOf(handle.db, STORY)).toEqual([
      { id, text: "The vote was 6 to 3, not 4 to 5.", date: date.toISOString() },
    ]);
    expect((await latestCorrections(handle.db, 10)).map((c) => c.text)).toEqual([
      "The vote was 6 to 3, not 4 to 5.",
    ]);
    expect((await audit())[1]).toEqual({
      who: chief.email,
      action: "story.correction-edit",
      subject: STORY,
      before: { correction: id, text: "The vote was 5 to 4, not 4 to 5." },
      after: { correction: id, text: "The vote was 6 to 3, not 4 to 5." },
    });
  });

  it("refuses an edit that is too short, unchanged, or of another story's correction", async () => {
    await addCorrection(services, editor, STORY, "The vote was 5 to 4, not 4 to 5.");
    const id = await onlyCorrectionId();
    const before = announced;
    for (const [story, correction, text] of [
      [STORY, id, "short"],
      [STORY, id, "The vote was 5 to 4, not 4 to 5."],
      [OTHER, id, "A different wording entirely."],
      [STORY, id + 1000, "A different wording entirely."],
      [STORY, Number.NaN, "A different wording entirely."],
      [`${STORY}\u0000`, id, "A different wording entirely."],
    ] as const) {
      expect(await editCorrection(services, chief, story, correction, text)).toMatchObject({
        ok: false,
      });
    }
    expect(announced).toBe(before);
    expect((await correctionsOf(handle.db, STORY)).map((c) => c.text)).toEqual([
      "The vote was 5 to 4, not 4 to 5.",
    ]);
    expect((await audit()).map((e) => e.action)).toEqual(["story.correct"]);
  });

  it("retracts a correction from the story and /corrections; the newsroom still lists it", async () => {
    const published = new Date("2026-11-21T18:00:00Z");
    await addCorrection(services, editor, STORY, "The mayor's name was misspelled.", published);
    await addCorrection(services, editor, STORY, "The meeting is on Tuesday.", new Date());
    const [kept, retracted] = await correctionsOf(handle.db, STORY);
    if (!kept || !retracted) throw new Error("two corrections expected");

    expect(await retractCorrection(services, chief, OTHER, retracted.id)).toMatchObject({
      ok: false,
    });
    expect(await retractCorrection(services, chief, STORY, retracted.id)).toEqual({
      ok: true,
      message: "The correction is retracted.",
    });
    expect(await retractCorrection(services, chief, STORY, retracted.id)).toMatchObject({
      ok: false,
    });
    expect((await correctionsOf(handle.db, STORY)).map((c) => c.text)).toEqual([
      "The meeting is on Tuesday.",
    ]);
    expect((await latestCorrections(handle.db, 10)).map((c) => c.text)).toEqual([
      "The meeting is on Tuesday.",
    ]);
    const listed = await storyCorrections(handle.db, STORY);
    expect(listed.shown.map((c) => c.text)).toEqual(["The meeting is on Tuesday."]);
    expect(listed.retracted).toEqual([
      {
        text: "The mayor's name was misspelled.",
        date: published.toISOString(),
        retractedAt: expect.any(String),
        retractedBy: chief.email,
      },
    ]);
    expect((await audit()).at(-1)).toEqual({
      who: chief.email,
      action: "story.correction-retract",
      subject: STORY,
      before: {
        correction: retracted.id,
        text: "The mayor's name was misspelled.",
        date: published.toISOString(),
      },
      after: null,
    });
  });
});
