import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatStaffTime } from "../../shared/staff-time";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { upsertArticle } from "../news/repository";
import { auditAuthors, auditPage, recordAudit } from "../staff/audit";
import { AUDIT_KINDS, auditSentence, type SentenceEntry } from "./audit-log";

reportSkippedPostgres();

const WHO = "ana.ruiz@example.org";
const STORY = "harbor-budget";
const TITLE = "Harbor budget passes";

const entry = (
  action: string,
  fields: Partial<Omit<SentenceEntry, "action" | "who">> = {},
): SentenceEntry => ({
  who: WHO,
  action,
  subject: STORY,
  before: null,
  after: null,
  storyTitle: TITLE,
  ...fields,
});

describe("the audit log's sentences", () => {
  it.each<[string, SentenceEntry, string]>([
    [
      "a take-down, with its reason",
      entry("story.take-down", {
        before: { down: false },
        after: { down: true, reason: "Legal request" },
      }),
      `${WHO} took down “Harbor budget passes” (reason: Legal request)`,
    ],
    [
      "a restore",
      entry("story.restore", { before: { down: true, reason: "Legal request" } }),
      `${WHO} restored “Harbor budget passes”`,
    ],
    [
      "a story since removed from the database",
      entry("story.restore", { storyTitle: null }),
      `${WHO} restored “story harbor-budget”`,
    ],
    [
      "a correction",
      entry("story.correct", { after: { correction: 3, text: "The vote was 5 to 2." } }),
      `${WHO} published a correction to “Harbor budget passes”`,
    ],
    [
      "a correction edited",
      entry("story.correction-edit"),
      `${WHO} edited a correction to “Harbor budget passes”`,
    ],
    [
      "a correction retracted",
      entry("story.correction-retract"),
      `${WHO} retracted a correction to “Harbor budget passes”`,
    ],
    [
      "a headline changed",
      entry("story.headline", {
        before: { headline: "Budget", feedHeadline: "Budget" },
        after: { headline: "Harbor budget passes", feedHeadline: "Budget" },
      }),
      `${WHO} changed the headline “Budget” to “Harbor budget passes”`,
    ],
    [
      "the feed's headline back",
      entry("story.headline", {
        before: { headline: "Harbor budget passes", feedHeadline: "Budget" },
        after: { headline: "Budget", feedHeadline: "Budget" },
      }),
      `${WHO} gave “Harbor budget passes” the feed's headline back, “Budget”`,
    ],
    [
      "the default picture",
      entry("story.picture", { before: { picture: "feed" }, after: { picture: "default" } }),
      `${WHO} gave “Harbor budget passes” the default picture`,
    ],
    [
      "a pin, until a time in San Diego",
      entry("story.pin", { after: { pinned: true, expires: "2026-11-28T17:14:00.000Z" } }),
      `${WHO} pinned “Harbor budget passes” until Nov 28, 2026, 9:14 AM`,
    ],
    [
      "a pin kept longer, in summer time",
      entry("story.pin", {
        before: { pinned: true, expires: "2026-07-01T00:00:00.000Z" },
        after: { pinned: true, expires: "2026-07-04T16:30:00.000Z" },
      }),
      `${WHO} kept “Harbor budget passes” pinned until Jul 4, 2026, 9:30 AM`,
    ],
    ["an unpin", entry("story.unpin"), `${WHO} unpinned “Harbor budget passes”`],
    [
      "a join, naming the other story by its headline",
      entry("story.group-join", {
        before: { group: null, with: "port-traffic-1", withTitle: "Port traffic grows" },
        after: { group: "g", moved: [STORY] },
      }),
      `${WHO} joined “Harbor budget passes” with “Port traffic grows”`,
    ],
    [
      "a join written before headlines were kept",
      entry("story.group-join", { before: { group: null, with: "port-traffic-1" } }),
      `${WHO} joined “Harbor budget passes” with story port-traffic-1`,
    ],
    [
      "a split",
      entry("story.group-split", { before: { group: "g", with: ["b"] }, after: { group: null } }),
      `${WHO} split “Harbor budget passes” from its story group`,
    ],
    [
      "a pin moved up",
      entry("story.pin-order", {
        before: { order: ["a", STORY, "b"] },
        after: { order: [STORY, "a", "b"] },
      }),
      `${WHO} moved “Harbor budget passes” up the pins, to place 1`,
    ],
    [
      "a block rule added",
      entry("rule.add", {
        subject: "rule 4",
        after: { feedId: null, field: "title", pattern: "casino*" },
      }),
      `${WHO} added a block rule for “casino*” in the headline`,
    ],
    [
      "a block rule applied",
      entry("rule.apply", {
        subject: "rule 4",
        storyTitle: null,
        after: { down: ["a", "b"], reason: 'Block rule #4 (headline: "casino*")' },
      }),
      `${WHO} took down 2 stories by block rule #4 (headline: "casino*")`,
    ],
    [
      "the banner put up",
      entry("banner.set", {
        subject: "breaking-banner",
        storyTitle: null,
        after: {
          text: "Fire on Route 52",
          link: null,
          expiresAt: "2026-11-27T23:00:00.000Z",
        },
      }),
      `${WHO} put up the banner “Fire on Route 52” until Nov 27, 2026, 3:00 PM`,
    ],
    [
      "the banner cleared",
      entry("banner.clear", { subject: "breaking-banner", before: { text: "Fire on Route 52" } }),
      `${WHO} cleared the banner “Fire on Route 52”`,
    ],
    [
      "a message handled",
      entry("inbox.handled", { subject: "contact-message:12", storyTitle: null }),
      `${WHO} marked message #12 handled`,
    ],
    [
      "a message deleted: which and when, never what it said",
      entry("inbox.delete", {
        subject: "contact-message:12",
        storyTitle: null,
        before: {
          received: "2026-11-20T17:05:00.000Z",
          category: "News tip",
          handled: true,
          automated: false,
        },
      }),
      `${WHO} deleted message #12, received Nov 20, 2026, 9:05 AM`,
    ],
    [
      "a digest started",
      entry("newsletter.send", { subject: null, storyTitle: null, after: { issue: "2026-11-27" } }),
      `${WHO} started sending the digest of 2026-11-27`,
    ],
    [
      "a digest finished",
      entry("newsletter.sent", {
        subject: null,
        storyTitle: null,
        after: { issueId: 4, sent: 120, bounced: 1, failed: 0, skipped: 2, completed: true },
      }),
      `The digest ${WHO} sent went to 120 readers (0 failed, 1 bounced)`,
    ],
    [
      "an ingest pass finished",
      entry("feeds.ingest-finished", {
        subject: null,
        storyTitle: null,
        after: { fetched: 1, inserted: 7, updated: 2, failed: 0 },
      }),
      `The ingest pass ${WHO} started read 1 feed: 7 new, 2 updated, 0 failed`,
    ],
    [
      "an account added",
      entry("staff.add", {
        subject: "staff:desk@example.org",
        storyTitle: null,
        after: { email: "desk@example.org", role: "editor" },
      }),
      `${WHO} added desk@example.org as an editor`,
    ],
    [
      "a role changed",
      entry("staff.role", {
        subject: "staff:desk@example.org",
        storyTitle: null,
        before: { role: "editor" },
        after: { role: "admin" },
      }),
      `${WHO} made desk@example.org an admin (was an editor)`,
    ],
    [
      "a password reset that ended sessions",
      entry("staff.password-reset", {
        subject: "staff:desk@example.org",
        storyTitle: null,
        after: { sessionsEnded: 2 },
      }),
      `${WHO} reset the password of desk@example.org, ending 2 sessions`,
    ],
    [
      "a password reset of a member signed in nowhere",
      entry("staff.password-reset", {
        subject: "staff:desk@example.org",
        storyTitle: null,
        after: { sessionsEnded: 0 },
      }),
      `${WHO} reset the password of desk@example.org`,
    ],
    [
      "an account removed",
      entry("staff.remove", {
        subject: "staff:desk@example.org",
        storyTitle: null,
        before: { email: "desk@example.org", role: "admin", since: "2026-11-01T17:00:00.000Z" },
        after: { sessionsEnded: 1 },
      }),
      `${WHO} removed the account of desk@example.org, an admin`,
    ],
    [
      "a role change of an unexpected shape",
      entry("staff.role", { subject: "staff:desk@example.org", after: { role: "owner" } }),
      `${WHO} changed the role of desk@example.org`,
    ],
    ["a sign-in", entry("sign-in", { subject: null, storyTitle: null }), `${WHO} signed in`],
    [
      "an action this list does not know",
      entry("test", { subject: "marker", storyTitle: null }),
      `${WHO}: test on marker`,
    ],
    [
      "a state of an unexpected shape",
      entry("banner.set", { subject: "breaking-banner", storyTitle: null, after: ["odd"] }),
      `${WHO} put up the banner “?” until ?`,
    ],
    [
      "a story published",
      entry("story.publish", {
        subject: "post:12",
        before: { status: "draft" },
        after: { status: "published", title: "Harbor vote" },
      }),
      `${WHO} published story #12 “Harbor vote”`,
    ],
    [
      "a blog post updated on the site",
      entry("blog.publish", {
        subject: "post:3",
        before: { status: "published" },
        after: { status: "published", title: "Balboa walk" },
      }),
      `${WHO} updated blog post #3 “Balboa walk”`,
    ],
    [
      "a scheduled story going live",
      entry("story.publish", {
        subject: "post:12",
        before: { status: "scheduled" },
        after: { status: "published", title: "Harbor vote", scheduled: true },
      }),
      `story #12 “Harbor vote” went on the site as ${WHO} scheduled it`,
    ],
    [
      "a story unpublished",
      entry("story.unpublish", { subject: "post:12", before: { status: "published" } }),
      `${WHO} took story #12 off the site`,
    ],
    [
      "a picture uploaded",
      entry("media.upload", { subject: "media:4", after: { filename: "IMG_1.jpg" } }),
      `${WHO} uploaded “IMG_1.jpg” to the media library`,
    ],
  ])("%s", (_name, input, sentence) => {
    expect(auditSentence(input, formatStaffTime)).toBe(sentence);
  });

  it("has a kind for every action the newsroom writes, each in one kind only", () => {
    const actions = Object.values(AUDIT_KINDS).flatMap((kind) => [...kind.actions]);
    expect(new Set(actions).size).toBe(actions.length);
    for (const action of actions) {
      expect(auditSentence(entry(action), formatStaffTime), action).not.toContain(`: ${action}`);
    }
  });
});

describe.each(testDatabases())("the audit log's filters on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  const ana = { id: 1, email: WHO };
  const ben = { id: 2, email: "ben@example.org" };

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
    await upsertArticle(handle.db, {
      id: STORY,
      category: "local-news",
      link: "https://sample.example.org/harbor",
      title: TITLE,
      excerpt: "The port board voted.",
      content: "<p>Voted.</p>",
      image: null,
      author: "Staff Writer",
      publishedAt: new Date("2026-11-20T12:00:00Z"),
    });
    // Oldest first: Ana signs in, corrects, takes down; Ben signs in, edits the correction.
    const write = [
      [ana, "sign-in", null],
      [ana, "story.correct", STORY],
      [ana, "story.take-down", STORY],
      [ben, "sign-in", null],
      [ben, "story.correction-edit", STORY],
      [ben, "story.restore", "a-story-since-removed"],
    ] as const;
    for (const [actor, action, subject] of write) {
      await recordAudit(handle.db, actor, { action, subject });
    }
  });
  afterAll(() => handle?.dispose());

  const actions = async (filter: Parameters<typeof auditPage>[1], size?: number) =>
    (await auditPage(handle.db, filter, size)).entries.map((e) => `${e.who} ${e.action}`);

  it("filters by who, by kind of action, or both, newest first", async () => {
    expect(await actions({ who: null, actions: null, page: 1 })).toHaveLength(6);
    expect(await actions({ who: ben.email, actions: null, page: 1 })).toEqual([
      `${ben.email} story.restore`,
      `${ben.email} story.correction-edit`,
      `${ben.email} sign-in`,
    ]);
    expect(await actions({ who: null, actions: AUDIT_KINDS.corrections.actions, page: 1 })).toEqual(
      [`${ben.email} story.correction-edit`, `${WHO} story.correct`],
    );
    expect(await actions({ who: WHO, actions: AUDIT_KINDS.corrections.actions, page: 1 })).toEqual([
      `${WHO} story.correct`,
    ]);
    expect(await actions({ who: "nobody@example.org", actions: null, page: 1 })).toEqual([]);
    expect(await actions({ who: null, actions: [], page: 1 })).toEqual([]);
  });

  it("pages, keeping a page past the end to the last one, and names the stories", async () => {
    const second = await auditPage(handle.db, { who: null, actions: null, page: 2 }, 4);
    expect(second).toMatchObject({ total: 6, page: 2, pages: 2 });
    expect(second.entries.map((e) => e.action)).toEqual(["story.correct", "sign-in"]);
    expect((await auditPage(handle.db, { who: null, actions: null, page: 9 }, 4)).page).toBe(2);
    const first = await auditPage(handle.db, { who: null, actions: null, page: 1 }, 4);
    expect(first.entries.map((e) => e.storyTitle)).toEqual([null, TITLE, null, TITLE]);
  });

  it("lists everyone who has an entry", async () => {
    expect(await auditAuthors(handle.db)).toEqual([WHO, ben.email].sort());
  });
});
