import { sanDiegoFormat } from "./san-diego-time";

// A module of its own, so the readers' pages, which import the zone, do not carry the newsroom's
// formatter (server/http/bundle-size.test.ts).
const staffTime = sanDiegoFormat({ dateStyle: "medium", timeStyle: "short" });

/** A date and time in San Diego, as staff read them: "Nov 27, 2026, 9:14 AM". */
export function formatStaffTime(iso: string): string {
  return staffTime.format(new Date(iso));
}
