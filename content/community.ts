/**
 * Static content of the Community page: upcoming events, resource links and the reader poll.
 * The events are SAMPLE listings for the demo; the resource links are real public services.
 */

import type { OutsideLink } from "./local-news";

export interface CommunityEvent {
  title: string;
  /** Start, ISO 8601 with San Diego's offset. */
  date: string;
  /** Shown as given, e.g. "10 a.m. – 2 p.m.". */
  time: string;
  place: string;
  description: string;
}

export const COMMUNITY_EVENTS: readonly CommunityEvent[] = [
  {
    title: "Neighborhood Beach Cleanup (sample)",
    date: "2026-12-05T09:00:00-08:00",
    time: "9 a.m. – noon",
    place: "Ocean Beach Pier",
    description: "Gloves and bags provided; bring water and sunscreen.",
  },
  {
    title: "Holiday Food Drive (sample)",
    date: "2026-12-12T10:00:00-08:00",
    time: "10 a.m. – 4 p.m.",
    place: "North Park Community Park",
    description: "Drop off canned and dry goods for local food banks.",
  },
  {
    title: "Library Tech Help Day (sample)",
    date: "2027-01-09T13:00:00-08:00",
    time: "1 – 4 p.m.",
    place: "Central Library, East Village",
    description: "Volunteers help with phones, laptops and online forms.",
  },
  {
    title: "Community Planning Group Open House (sample)",
    date: "2027-01-21T18:00:00-08:00",
    time: "6 – 8 p.m.",
    place: "Logan Heights Library",
    description: "Meet your planning group and hear about upcoming projects.",
  },
];

export const COMMUNITY_RESOURCES: readonly OutsideLink[] = [
  {
    label: "211 San Diego",
    url: "https://211sandiego.org/",
    description:
      "Free, confidential help finding food, housing, health and crisis services, day and night.",
  },
  {
    label: "San Diego Public Library",
    url: "https://www.sandiego.gov/public-library",
    description: "Branches, e-books, classes and free programs for all ages.",
  },
  {
    label: "Parks & Recreation",
    url: "https://www.sandiego.gov/park-and-recreation",
    description: "City parks, recreation centers, pools and activity guides.",
  },
  {
    label: "Get It Done San Diego",
    url: "https://www.sandiego.gov/get-it-done",
    description: "Report potholes, graffiti and other neighborhood problems to the city.",
  },
  {
    label: "San Diego MTS",
    url: "https://www.sdmts.com/",
    description: "Bus and trolley routes, schedules and fares.",
  },
  {
    label: "County of San Diego",
    url: "https://www.sandiegocounty.gov/",
    description: "County services, from public health to libraries outside the city.",
  },
];

export const POLL_OPTIONS = [
  "Housing affordability",
  "Homelessness",
  "Transportation",
  "Climate change",
  "Jobs & economy",
] as const;

export type PollOption = (typeof POLL_OPTIONS)[number];

export const COMMUNITY_POLL = {
  /** Stored with every vote; a new question gets a new id so its votes start from zero. */
  id: "community-priorities-2026",
  question: "What is the most important issue facing San Diego?",
  options: POLL_OPTIONS,
} as const;
