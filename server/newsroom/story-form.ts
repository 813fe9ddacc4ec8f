import { PIN_DURATIONS } from "../../shared/newsroom";
import type { StaffMember } from "../staff/accounts";
import type { ActionResult, NewsroomServices } from "./action";
import { addCorrection, editCorrection, retractCorrection } from "./corrections";
import { movePin, pin, unpin } from "./pins";
import { restore, setHeadline, setPictureChoice, takeDown } from "./stories";
import { chooseLead, joinStories, splitStory } from "./story-groups";

/** The story actions a newsroom form can ask for, by its `intent` field. */
export const STORY_INTENTS = [
  "take-down",
  "restore",
  "correct",
  "correction-edit",
  "correction-retract",
  "headline",
  "picture",
  "pin",
  "unpin",
  "pin-up",
  "pin-down",
  "group-split",
  "group-join",
  "group-lead",
] as const;
export type StoryIntent = (typeof STORY_INTENTS)[number];

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
  typeof value === "string" && (STORY_INTENTS as readonly string[]).includes(value);

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Runs the story action a posted form asks for, as `member`. */
export function runStoryAction(
  services: NewsroomServices,
  member: Pick<StaffMember, "id" | "email">,
  intent: StoryIntent,
  id: string,
  form: FormData,
  now = new Date(),
): Promise<ActionResult> {
  switch (intent) {
    case "take-down":
      return takeDown(services, member, id, text(form, "reason"), now);
    case "restore":
      return restore(services, member, id);
    case "correct":
      return addCorrection(services, member, id, text(form, "correction"), now);
    case "correction-edit":
      return editCorrection(
        services,
        member,
        id,
        Number(text(form, "correction-id")),
        text(form, "correction"),
      );
    case "correction-retract":
      return retractCorrection(services, member, id, Number(text(form, "correction-id")));
    case "headline":
      return setHeadline(services, member, id, form.has("use-feed") ? "" : text(form, "headline"));
    case "picture":
      return setPictureChoice(
        services,
        member,
        id,
        text(form, "picture") === "default" ? "default" : "feed",
      );
    case "pin": {
      const hours = Number(text(form, "hours"));
      if (!PIN_DURATIONS.some((d) => d.hours === hours)) {
        return Promise.resolve({ ok: false, error: "Choose how long the pin lasts." });
      }
      return pin(services, member, id, new Date(now.getTime() + hours * 3600_000), now);
    }
    case "unpin":
      return unpin(services, member, id, now);
    case "pin-up":
      return movePin(services, member, id, "up", now);
    case "pin-down":
      return movePin(services, member, id, "down", now);
    case "group-split":
      return splitStory(services, member, id);
    case "group-join":
      return joinStories(services, member, id, text(form, "other"));
    case "group-lead":
      return chooseLead(services, member, id);
  }
}
