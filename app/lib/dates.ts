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
