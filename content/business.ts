/**
 * Static content of the Business page. The directory lists real regional organisations with their
 * public websites; the spotlight, the indicator figures and the events are SAMPLE content for the
 * demo, and say so on the page.
 */

import type { OutsideLink } from "./local-news";

export const BUSINESS_SPOTLIGHT = {
  name: "Harbor Lane Coffee Roasters (sample)",
  neighborhood: "Barrio Logan",
  text: "A family-run roastery that buys directly from growers in Mexico and Central America, trains local baristas, and ships to cafés across the county. This month they open a second location near the trolley.",
};

export const BUSINESS_DIRECTORY: readonly OutsideLink[] = [
  {
    label: "San Diego Regional Chamber of Commerce",
    url: "https://sdchamber.org/",
    description: "Advocacy, networking and events for the region's employers.",
  },
  {
    label: "San Diego Regional Economic Development Corporation",
    url: "https://www.sandiegobusiness.org/",
    description: "Research and support for companies growing or moving to the region.",
  },
  {
    label: "SCORE San Diego",
    url: "https://sandiego.score.org/",
    description: "Free mentoring and workshops from volunteer business advisers.",
  },
  {
    label: "San Diego & Imperial Small Business Development Center Network",
    url: "https://www.sdivsbdc.org/",
    description: "No-cost advising and training for small businesses.",
  },
  {
    label: "Port of San Diego",
    url: "https://www.portofsandiego.org/",
    description: "Maritime trade, waterfront leases and tidelands business opportunities.",
  },
  {
    label: "Downtown San Diego Partnership",
    url: "https://downtownsandiego.org/",
    description: "Downtown business improvement, events and economic data.",
  },
];

export interface Indicator {
  label: string;
  value: string;
  change: string;
}

export const ECONOMIC_INDICATORS: {
  /** Shown with the figures so no reader takes them for official statistics. */
  note: string;
  asOf: string;
  figures: readonly Indicator[];
} = {
  note: "Sample figures for illustration, not official statistics.",
  asOf: "2026-10-31T12:00:00-07:00",
  figures: [
    {
      label: "Unemployment rate, San Diego County",
      value: "4.5%",
      change: "−0.2 points on the year",
    },
    { label: "Median home sale price", value: "$985,000", change: "+3.1% on the year" },
    { label: "Hotel occupancy", value: "78%", change: "+1.4 points on the year" },
    { label: "New business licenses (month)", value: "1,240", change: "+6% on the year" },
  ],
};

export interface BusinessEvent {
  title: string;
  /** Start, ISO 8601 with San Diego's offset. */
  date: string;
  place: string;
}

export const BUSINESS_EVENTS: readonly BusinessEvent[] = [
  {
    title: "Small Business Financing Workshop (sample)",
    date: "2026-12-03T09:00:00-08:00",
    place: "Online",
  },
  {
    title: "Downtown Holiday Mixer (sample)",
    date: "2026-12-10T09:00:00-08:00",
    place: "East Village",
  },
  {
    title: "Regional Economic Outlook Breakfast (sample)",
    date: "2027-01-14T09:00:00-08:00",
    place: "Mission Valley",
  },
  {
    title: "Export Basics for Makers (sample)",
    date: "2027-02-04T09:00:00-08:00",
    place: "Otay Mesa",
  },
];
