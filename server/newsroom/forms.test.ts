import { describe, expect, it } from "vitest";
import { actionOf, readAction, typedText, UNKNOWN_ACTION } from "./form-input";
import { storyAction } from "./story-form";
import {
  bannerAction,
  focusClick,
  inboxAction,
  mediaUpload,
  revisionToRestore,
  ruleAction,
  staffAction,
  UNKNOWN_ROLE,
} from "./forms";

const form = (...entries: [string, string | File][]) => {
  const sent = new FormData();
  for (const [name, value] of entries) sent.append(name, value);
  return sent;
};

/** The 400 response a form with an action no page sends is answered with. */
async function refusal(read: () => unknown): Promise<[number, string]> {
  try {
    read();
  } catch (thrown) {
    const { init, data } = thrown as { init: ResponseInit; data: string };
    return [init.status ?? 0, data];
  }
  throw new Error("the form was not refused");
}

describe("newsroom form schemas", () => {
  it("refuses a missing or unknown intent with 400", async () => {
    expect(await refusal(() => actionOf(bannerAction, form()))).toEqual([400, UNKNOWN_ACTION]);
    expect(await refusal(() => actionOf(inboxAction, form(["intent", "delete"])))).toEqual([
      400,
      UNKNOWN_ACTION,
    ]);
    expect(await refusal(() => readAction(ruleAction, form(["intent", "ADD"])))).toEqual([
      400,
      UNKNOWN_ACTION,
    ]);
  });

  it("reads a block rule's feed: none for every feed, else a record's number", () => {
    const add = (feed: string) =>
      actionOf(ruleAction, form(["intent", "add"], ["feed", feed], ["pattern", "casino"]));
    expect(add("")).toEqual({ intent: "add", feed: null, field: "any", pattern: "casino" });
    expect(add("7")).toMatchObject({ feed: 7 });
    // No feed has number 0, so the action answers its own "no such feed" message.
    expect(add("seven")).toMatchObject({ feed: 0 });
    expect(add("99999999999")).toMatchObject({ feed: 0 });
    const field = actionOf(ruleAction, form(["intent", "add"], ["field", "<script>"]));
    expect(field).toMatchObject({ field: "any", pattern: "", feed: null });
    expect(actionOf(ruleAction, form(["intent", "remove"], ["rule", "3"]))).toEqual({
      intent: "remove",
      rule: 3,
    });
  });

  it("keeps a banner's text as typed and takes the first of repeated fields", () => {
    const set = actionOf(
      bannerAction,
      form(["intent", "set"], ["text", " Road closed "], ["text", "second"], ["expires", "x"]),
    );
    expect(set).toEqual({ intent: "set", text: " Road closed ", link: "", expires: "x" });
    expect(typedText(form(["text", new File(["a"], "a.txt")]), "text")).toBe("");
  });

  it("says which role to choose, and refuses a role no button offers", () => {
    const add = readAction(staffAction, form(["intent", "add"], ["role", "owner"]));
    expect(add).toEqual({ ok: false, error: "Choose a role: editor or admin." });
    const role = readAction(staffAction, form(["intent", "role"], ["role", "owner"]));
    expect(role).toEqual({ ok: false, error: UNKNOWN_ROLE });
    const made = readAction(
      staffAction,
      form(["intent", "role"], ["role", "admin"], ["member", "4"]),
    );
    expect(made).toEqual({ ok: true, data: { intent: "role", role: "admin", member: 4 } });
  });

  it("asks for a picture file, and takes one with its words", () => {
    const none = readAction(mediaUpload, form(["alt", "A pier"]));
    expect(none).toEqual({ ok: false, error: "Choose a picture file to upload." });
    const empty = readAction(mediaUpload, form(["picture", new File([], "empty.jpg")]));
    expect(empty).toEqual({ ok: false, error: "Choose a picture file to upload." });
    const picture = new File([new Uint8Array([1, 2, 3])], "pier.jpg", { type: "image/jpeg" });
    const read = readAction(mediaUpload, form(["picture", picture], ["alt", "A pier"]));
    expect(read).toEqual({ ok: true, data: { picture, alt: "A pier", credit: "" } });
  });

  it("reads a story's headline, and 'Use the feed's headline' whatever the field holds", () => {
    const headline = (...entries: [string, string][]) =>
      actionOf(storyAction, form(["intent", "headline"], ...entries));
    expect(headline(["headline", "Bay ferry is back"])).toEqual({
      intent: "headline",
      headline: "Bay ferry is back",
    });
    expect(headline(["headline", "Bay"], ["use-feed", ""])).toMatchObject({ "use-feed": "" });
    expect(actionOf(storyAction, form(["intent", "pin"], ["hours", "24"]))).toEqual({
      intent: "pin",
      hours: 24,
    });
    expect(readAction(storyAction, form(["intent", "pin"], ["hours", "5"]))).toEqual({
      ok: false,
      error: "Choose how long the pin lasts.",
    });
  });

  it("reads a revision's number and a click's point", () => {
    expect(readAction(revisionToRestore, form(["revision", "12"]))).toEqual({
      ok: true,
      data: { revision: 12 },
    });
    expect(readAction(revisionToRestore, form(["revision", "1.5"])).ok).toBe(false);
    expect(actionOf(focusClick, form(["focus.x", "10"], ["focus.y", "20.5"]))).toEqual({
      x: 10,
      y: 20.5,
    });
    expect(actionOf(focusClick, form(["focus.x", "left"]))).toEqual({ x: NaN, y: 0 });
  });
});
