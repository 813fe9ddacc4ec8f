/** The newsroom's limits and choices, for its server code and its forms alike. */

/** How many stories staff can pin to the top of the slider and the headlines. */
export const MAX_PINS = 5;

/** How long a pin lasts, as offered in the newsroom. */
export const PIN_DURATIONS = [
  { hours: 6, label: "6 hours" },
  { hours: 12, label: "12 hours" },
  { hours: 24, label: "1 day" },
  { hours: 48, label: "2 days" },
  { hours: 72, label: "3 days" },
  { hours: 168, label: "1 week" },
  { hours: 336, label: "2 weeks" },
  { hours: 720, label: "30 days" },
] as const;

export const MAX_REASON_LENGTH = 500;
export const MAX_CORRECTION_LENGTH = 2000;
export const MAX_HEADLINE_LENGTH = 300;

export const STORY_STATUSES = ["all", "live", "down", "pinned", "corrected", "edited"] as const;
export type StoryStatus = (typeof STORY_STATUSES)[number];

export const STORY_STATUS_LABELS: Record<StoryStatus, string> = {
  all: "All",
  live: "On the site",
  down: "Taken down",
  pinned: "Pinned",
  corrected: "Corrected",
  edited: "Headline or picture changed",
};

export const BLOCK_FIELDS = ["title", "author", "link", "any"] as const;
export type BlockField = (typeof BLOCK_FIELDS)[number];

export const BLOCK_FIELD_LABELS: Record<BlockField, string> = {
  title: "Headline",
  author: "Author",
  link: "Link",
  any: "Headline, author or link",
};

export const MAX_PATTERN_LENGTH = 200;

/** The Breaking banner staff set: its text, its link and how long it may stay up. */
export const MAX_BANNER_TEXT_LENGTH = 200;
export const MAX_BANNER_LINK_LENGTH = 500;
export const MIN_BANNER_MINUTES = 5;
export const MAX_BANNER_DAYS = 7;

/** Contact messages per page of the newsroom's inbox. */
export const INBOX_PAGE_SIZE = 20;

/** What the inbox says once an action is done (the redirect names it, never free text). */
export const INBOX_DONE = {
  handled: "The message is marked handled.",
  unhandled: "The message is open again.",
  delete: "The message is deleted.",
} as const;
export type InboxDone = keyof typeof INBOX_DONE;
export const isInboxDone = (value: unknown): value is InboxDone =>
  typeof value === "string" && Object.hasOwn(INBOX_DONE, value);

/** The inbox page a query or form value names: a whole number from 1, else the first page. */
export function inboxPageNumber(value: string | File | null): number {
  const n = Number(typeof value === "string" ? value : 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** The inbox's address for a page, with what was just done. */
export function inboxAddress(page: number, done?: InboxDone): string {
  const query = new URLSearchParams();
  if (page > 1) query.set("page", String(page));
  if (done) query.set("done", done);
  const search = query.toString();
  return `/newsroom/inbox${search ? `?${search}` : ""}`;
}
