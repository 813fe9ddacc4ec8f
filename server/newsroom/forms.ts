import { z } from "zod";
import { BLOCK_FIELDS } from "../../shared/newsroom";
import { POST_KINDS } from "../../shared/post-fields";
import { STAFF_ROLES } from "../staff/accounts";
import { recordId, storedId, textField } from "./form-input";

/**
 * The schemas of the newsroom's smaller forms, one per action (form-input.ts says how they are
 * read); the story actions' are in story-form.ts and the editor's in post-form.ts.
 */

/** Feeds: start an ingest pass. */
export const feedsAction = z.object({ intent: z.literal("ingest") });

/** Newsletter: send today's digest. */
export const newsletterAction = z.object({ intent: z.literal("send") });

/** The Breaking banner: put one up (its end as typed, on San Diego's clock) or clear it. */
export const bannerAction = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("set"), text: textField, link: textField, expires: textField }),
  z.object({ intent: z.literal("clear") }),
]);

/** Block rules: add one (for every feed when none is chosen), remove one, apply one. */
export const ruleAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    feed: textField.transform((feed) => (feed === "" ? null : recordId.parse(feed))),
    field: z.enum(BLOCK_FIELDS).catch("any"),
    pattern: textField,
  }),
  z.object({ intent: z.literal("remove"), rule: recordId }),
  z.object({ intent: z.literal("apply"), rule: recordId }),
]);

/** The inbox: mark a message handled, or open again. */
export const inboxAction = z.object({
  intent: z.enum(["handled", "unhandled"]),
  message: recordId,
});

/** A role the staff page's "Make an …" button did not offer. */
export const UNKNOWN_ROLE = "Unknown role.";

/** Staff accounts: add one, change a role, reset a password. */
export const staffAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    email: textField,
    role: z.enum(STAFF_ROLES, { error: "Choose a role: editor or admin." }),
    password: textField,
  }),
  z.object({
    intent: z.literal("role"),
    role: z.enum(STAFF_ROLES, { error: UNKNOWN_ROLE }),
    member: recordId,
  }),
  z.object({ intent: z.literal("reset"), member: recordId, password: textField }),
]);

/** Writing: start a story or a blog post. */
export const newPostKind = z.enum(POST_KINDS);

/** A post's revisions: make one of them the draft again. */
export const revisionToRestore = z.object({ revision: storedId });

/** The media library: upload a picture, with its alt text and credit. */
export const mediaUpload = z.object({
  picture: z
    .file({ error: "Choose a picture file to upload." })
    .min(1, "Choose a picture file to upload."),
  alt: textField,
  credit: textField,
});

/** A library picture's alt text and credit. */
export const mediaWords = z.object({ alt: textField, credit: textField });

/**
 * A click on a picture drawn as an image button (`focus.x`, `focus.y`: CSS pixels from its top
 * left corner), as `Number` reads them; the action says when they are not a point.
 */
export const focusClick = z
  .object({ "focus.x": textField.transform(Number), "focus.y": textField.transform(Number) })
  .transform((click) => ({ x: click["focus.x"], y: click["focus.y"] }));

/** Signing in; `next` is the newsroom page to go on to (server/staff/sign-in.ts checks it). */
export const signInForm = z.object({ email: textField, password: textField, next: textField });
