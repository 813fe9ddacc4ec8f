const TIME_ZONE = "America/Los_Angeles";

const longDate = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "long",
  day: "numeric",
});

/** "November 22, 2026", in San Diego's time zone whatever the server's. */
export function formatLongDate(value: Date | string): string {
  return longDate.format(typeof value === "string" ? new Date(value) : value);
}

const yearOnly = new Intl.DateTimeFormat("en-US", { timeZone: TIME_ZONE, year: "numeric" });

/**
 * The year in San Diego at `when`: the same on the server and in every reader's browser, so a page
 * rendered on New Year's Eve evening (already January in UTC) hydrates without a mismatch.
 */
export function sanDiegoYear(when: Date = new Date()): number {
  return Number(yearOnly.format(when));
}
