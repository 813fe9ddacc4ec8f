import { z } from "zod";
import { PIN_DURATIONS } from "../../shared/newsroom";
import type { ActionResult, Actor, NewsroomServices } from "./action";
import { addCorrection, editCorrection, retractCorrection } from "./corrections";
import { movePin, pin, unpin } from "./pins";
import { restore, setHeadline, setPictureChoice, takeDown } from "./stories";
import { recordId, textField } from "./form-input";
import { chooseLead, joinStories, splitStory } from "./story-groups";

/** The story actions a newsroom form can ask for, by its `intent` field. */
export type StoryIntent = StoryAction["intent"];

/** What the page says once an action is done (the redirect names the intent, never free text). */
export const DONE: Record<StoryIntent, string> = {
  "take-down": "The story is down: its address answers 410 Gone and no list shows it.",
  restore: "The story is back on the site.",
  correct: "The correction is published on the story and at /corrections.",
  "correction-edit": "The correction is changed on the story and at /corrections.",
  "correction-retract":
    "The correction is retracted: it is gone from the story, /corrections and its feed.",
  headline: "The headline is saved.",
  picture: "The picture choice is saved.",
  pin: "The pin is saved.",
  unpin: "The story is unpinned.",
  "pin-up": "The pins are reordered.",
  "pin-down": "The pins are reordered.",
  "group-split": "The story stands alone now: no ingest pass groups it again.",
  "group-join": "The stories are one group: lists show its lead with “also covered by”.",
  "group-lead": "The story leads its group: lists of every category show it for the group.",
};

export const isStoryIntent = (value: unknown): value is StoryIntent =>
  typeof value === "string" && Object.hasOwn(DONE, value);

/** An action that carries nothing but its intent. */
const bare = <I extends string>(intent: I) => z.object({ intent: z.literal(intent) });

const takeDownForm = z.object({ intent: z.literal("take-down"), reason: textField });
const correctForm = z.object({ intent: z.literal("correct"), correction: textField });
const pinForm = z.object({
  intent: z.literal("pin"),
  hours: textField.transform(Number).pipe(
    z.literal(
      PIN_DURATIONS.map((d) => d.hours),
      "Choose how long the pin lasts.",
    ),
  ),
});

/** The actions of a story's own page, each with the fields its form posts. */
export const storyAction = z.discriminatedUnion("intent", [
  takeDownForm,
  bare("restore"),
  correctForm,
  z.object({
    intent: z.literal("correction-edit"),
    "correction-id": recordId,
    correction: textField,
  }),
  z.object({ intent: z.literal("correction-retract"), "correction-id": recordId }),
  // "Use the feed's headline" clears the one staff wrote, whatever the field holds.
  z.object({
    intent: z.literal("headline"),
    headline: textField,
    "use-feed": z.unknown().optional(),
  }),
  z.object({ intent: z.literal("picture"), picture: z.enum(["default", "feed"]).catch("feed") }),
  pinForm,
  bare("unpin"),
  bare("pin-up"),
  bare("pin-down"),
  bare("group-split"),
  z.object({ intent: z.literal("group-join"), other: textField }),
  bare("group-lead"),
]);
export type StoryAction = z.output<typeof storyAction>;

/** The actions of a row of the stories list and of its pins; a story's others are on its page. */
export const storyListAction = z.discriminatedUnion("intent", [
  takeDownForm,
  bare("restore"),
  correctForm,
  pinForm,
  bare("unpin"),
  bare("pin-up"),
  bare("pin-down"),
]);

/** Runs the story action a posted form asks for (read by storyAction), as `member`. */
export function runStoryAction(
  services: NewsroomServices,
  member: Actor,
  action: StoryAction,
  id: string,
  now = new Date(),
): Promise<ActionResult> {
  switch (action.intent) {
    case "take-down":
      return takeDown(services, member, id, action.reason, now);
    case "restore":
      return restore(services, member, id);
    case "correct":
      return addCorrection(services, member, id, action.correction, now);
    case "correction-edit":
      return editCorrection(services, member, id, action["correction-id"], action.correction);
    case "correction-retract":
      return retractCorrection(services, member, id, action["correction-id"]);
    case "headline":
      return setHeadline(
        services,
        member,
        id,
        action["use-feed"] === undefined ? action.headline : "",
      );
    case "picture":
      return setPictureChoice(services, member, id, action.picture);
    case "pin":
      return pin(services, member, id, new Date(now.getTime() + action.hours * 3600_000), now);
    case "unpin":
      return unpin(services, member, id, now);
    case "pin-up":
      return movePin(services, member, id, "up", now);
    case "pin-down":
      return movePin(services, member, id, "down", now);
    case "group-split":
      return splitStory(services, member, id);
    case "group-join":
      return joinStories(services, member, id, action.other);
    case "group-lead":
      return chooseLead(services, member, id);
  }
}
