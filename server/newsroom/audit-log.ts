import { field } from "../../shared/cache-keys";
import { BLOCK_FIELD_LABELS, type BlockField } from "../../shared/newsroom";
import type { AuditEntry } from "../staff/audit";

/**
 * The audit log as admins read it (/newsroom/audit): each entry told as a sentence ("editor@… took
 * down “Harbor budget passes”"), and the kinds of action the log can be filtered by.
 */

/** The kinds of action, in the order the filter offers them, each with the actions it covers. */
export const AUDIT_KINDS = {
  "take-downs": { label: "Take-downs and restores", actions: ["story.take-down", "story.restore"] },
  corrections: {
    label: "Corrections",
    actions: ["story.correct", "story.correction-edit", "story.correction-retract"],
  },
  "headlines-pictures": {
    label: "Headlines and pictures",
    actions: ["story.headline", "story.picture"],
  },
  pins: { label: "Pins", actions: ["story.pin", "story.unpin", "story.pin-order"] },
  groups: {
    label: "Story groups",
    actions: ["story.group-split", "story.group-join", "story.group-lead"],
  },
  rules: { label: "Block rules", actions: ["rule.add", "rule.remove", "rule.apply"] },
  banner: { label: "Banner", actions: ["banner.set", "banner.clear"] },
  inbox: { label: "Inbox", actions: ["inbox.handled", "inbox.unhandled", "inbox.delete"] },
  newsletter: { label: "Newsletter", actions: ["newsletter.send", "newsletter.sent"] },
  feeds: { label: "Ingest passes", actions: ["feeds.ingest", "feeds.ingest-finished"] },
  writing: {
    label: "Writing and publishing",
    actions: [
      ...["story.create", "story.publish", "story.schedule", "story.unpublish"],
      ...["story.restore-revision", "blog.create", "blog.publish", "blog.schedule"],
      ...["blog.unpublish", "blog.restore-revision"],
    ],
  },
  media: { label: "Media library", actions: ["media.upload", "media.focus", "media.words"] },
  staff: {
    label: "Staff accounts",
    actions: ["staff.add", "staff.role", "staff.password-reset", "staff.remove"],
  },
  sessions: { label: "Sign-ins and sign-outs", actions: ["sign-in", "sign-out"] },
} as const satisfies Record<string, { label: string; actions: readonly string[] }>;

export type AuditKind = keyof typeof AUDIT_KINDS;

export const isAuditKind = (value: unknown): value is AuditKind =>
  typeof value === "string" && Object.hasOwn(AUDIT_KINDS, value);

/** What a sentence needs of an entry. */
export type SentenceEntry = Pick<
  AuditEntry,
  "who" | "action" | "subject" | "before" | "after" | "storyTitle"
>;

// A field of an entry's before or after state, when it is of the type asked for.
const text = (state: unknown, key: string): string | null => {
  const value = field(state, key);
  return typeof value === "string" ? value : null;
};
const count = (state: unknown, key: string): number => {
  const value = field(state, key);
  return typeof value === "number" ? value : 0;
};
const list = (state: unknown, key: string): unknown[] => {
  const value = field(state, key);
  return Array.isArray(value) ? value : [];
};

const quoted = (words: string) => `“${words}”`;

/** A newsroom post as a sentence names it: "story #12", "blog post #3". */
const written = (entry: Pick<SentenceEntry, "action" | "subject">) =>
  `${entry.action.startsWith("blog.") ? "blog post" : "story"} #${(entry.subject ?? "?").replace(/^post:/, "")}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A staff role as a sentence says it: "an editor", "an admin". */
function role(state: unknown): string | null {
  const name = text(state, "role");
  return name === "editor" || name === "admin" ? `an ${name}` : null;
}

/** A block rule as its audit entry states it: its words, and where it looks for them. */
function blockRule(state: unknown): string {
  const field = text(state, "field");
  const where =
    field !== null && Object.hasOwn(BLOCK_FIELD_LABELS, field)
      ? ` in the ${BLOCK_FIELD_LABELS[field as BlockField].toLowerCase()}`
      : "";
  return `${quoted(text(state, "pattern") ?? "?")}${where}`;
}

/**
 * One entry as a sentence, without its time: who did what to what. `formatTime` writes an instant
 * the entry names (a pin's or a banner's end, when a deleted message came) as staff read times.
 */
export function auditSentence(entry: SentenceEntry, formatTime: (iso: string) => string): string {
  const { who, before, after } = entry;
  const story = quoted(entry.storyTitle ?? `story ${entry.subject ?? "?"}`);
  const time = (iso: string | null) => (iso === null ? "?" : formatTime(iso));
  const message = `message #${(entry.subject ?? "").replace(/^contact-message:/, "")}`;
  const account = (entry.subject ?? "?").replace(/^staff:/, "");
  switch (entry.action) {
    case "sign-in":
      return `${who} signed in`;
    case "sign-out":
      return `${who} signed out`;
    case "story.take-down": {
      const reason = text(after, "reason");
      return `${who} took down ${story}${reason ? ` (reason: ${reason})` : ""}`;
    }
    case "story.restore":
      return `${who} restored ${story}`;
    case "story.correct":
      return `${who} published a correction to ${story}`;
    case "story.correction-edit":
      return `${who} edited a correction to ${story}`;
    case "story.correction-retract":
      return `${who} retracted a correction to ${story}`;
    case "story.headline": {
      const was = text(before, "headline");
      const now = text(after, "headline");
      const feed = text(after, "feedHeadline");
      return now !== null && now === feed
        ? `${who} gave ${quoted(was ?? "?")} the feed's headline back, ${quoted(now)}`
        : `${who} changed the headline ${quoted(was ?? "?")} to ${quoted(now ?? "?")}`;
    }
    case "story.picture":
      return text(after, "picture") === "default"
        ? `${who} gave ${story} the default picture`
        : `${who} gave ${story} the feed's picture back`;
    case "story.pin":
      return before === null
        ? `${who} pinned ${story} until ${time(text(after, "expires"))}`
        : `${who} kept ${story} pinned until ${time(text(after, "expires"))}`;
    case "story.unpin":
      return `${who} unpinned ${story}`;
    case "story.group-split":
      return `${who} split ${story} from its story group`;
    case "story.group-join": {
      const other = text(before, "withTitle");
      return `${who} joined ${story} with ${other === null ? `story ${text(before, "with") ?? "?"}` : quoted(other)}`;
    }
    case "story.group-lead":
      return `${who} made ${story} its story group's lead`;
    case "story.pin-order": {
      const from = list(before, "order").indexOf(entry.subject);
      const to = list(after, "order").indexOf(entry.subject);
      return `${who} moved ${story} ${to < from ? "up" : "down"} the pins, to place ${to + 1}`;
    }
    case "rule.add":
      return `${who} added a block rule for ${blockRule(after)}`;
    case "rule.remove":
      return `${who} removed the block rule for ${blockRule(before)}`;
    case "rule.apply": {
      const rule = text(after, "reason") ?? entry.subject ?? "a block rule";
      const stories = plural(list(after, "down").length, "story", "stories");
      return `${who} took down ${stories} by ${rule.replace(/^Block rule/, "block rule")}`;
    }
    case "banner.set":
      return `${who} put up the banner ${quoted(text(after, "text") ?? "?")} until ${time(
        text(after, "expiresAt"),
      )}`;
    case "banner.clear":
      return `${who} cleared the banner ${quoted(text(before, "text") ?? "?")}`;
    case "inbox.handled":
      return `${who} marked ${message} handled`;
    case "inbox.unhandled":
      return `${who} marked ${message} open again`;
    case "inbox.delete": {
      const received = text(before, "received");
      return `${who} deleted ${message}${received ? `, received ${formatTime(received)}` : ""}`;
    }
    case "newsletter.send":
      return `${who} started sending the digest of ${text(after, "issue") ?? "today"}`;
    case "newsletter.sent":
      return `The digest ${who} sent went to ${plural(count(after, "sent"), "reader", "readers")} (${count(after, "failed")} failed, ${count(after, "bounced")} bounced)`;
    case "feeds.ingest":
      return `${who} started an ingest pass`;
    case "feeds.ingest-finished":
      return `The ingest pass ${who} started read ${plural(count(after, "fetched"), "feed", "feeds")}: ${count(after, "inserted")} new, ${count(after, "updated")} updated, ${count(after, "failed")} failed`;
    case "story.create":
    case "blog.create":
      return `${who} started ${written(entry)}`;
    case "story.publish":
    case "blog.publish": {
      const title = text(after, "title");
      const what = `${written(entry)}${title ? ` ${quoted(title)}` : ""}`;
      if (after !== null && typeof after === "object" && "scheduled" in after) {
        return `${what} went on the site as ${who} scheduled it`;
      }
      return `${who} ${text(before, "status") === "published" ? "updated" : "published"} ${what}`;
    }
    case "story.schedule":
    case "blog.schedule":
      return `${who} scheduled ${written(entry)} for ${time(text(after, "at"))}`;
    case "story.unpublish":
    case "blog.unpublish":
      return text(before, "status") === "scheduled"
        ? `${who} cancelled the schedule of ${written(entry)}`
        : `${who} took ${written(entry)} off the site`;
    case "story.restore-revision":
    case "blog.restore-revision":
      return `${who} restored an earlier revision of ${written(entry)}`;
    case "media.upload":
      return `${who} uploaded ${text(after, "filename") ? quoted(text(after, "filename") ?? "") : "a picture"} to the media library`;
    case "media.focus":
      return `${who} set the focal point of picture #${(entry.subject ?? "").replace(/^media:/, "")}`;
    case "media.words":
      return `${who} changed the alt text or credit of picture #${(entry.subject ?? "").replace(/^media:/, "")}`;
    case "staff.add": {
      const given = role(after);
      return `${who} added ${account}${given ? ` as ${given}` : ""}`;
    }
    case "staff.role": {
      const [was, now] = [role(before), role(after)];
      return now === null
        ? `${who} changed the role of ${account}`
        : `${who} made ${account} ${now}${was ? ` (was ${was})` : ""}`;
    }
    case "staff.password-reset": {
      const ended = count(after, "sessionsEnded");
      return `${who} reset the password of ${account}${ended > 0 ? `, ending ${plural(ended, "session", "sessions")}` : ""}`;
    }
    case "staff.remove": {
      const was = role(before);
      return `${who} removed the account of ${account}${was ? `, ${was}` : ""}`;
    }
    default:
      return `${who}: ${entry.action}${entry.subject ? ` on ${entry.subject}` : ""}`;
  }
}
