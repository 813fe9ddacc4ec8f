/**
 * House ads for the spec's sponsor ad types. SAMPLE copy and links: an operator replaces them with
 * the sponsors' own.
 */
export type SponsorType = "google" | "buddhatv" | "dunamis";

export interface Sponsor {
  label: string;
  headline: string;
  text: string;
  url: string;
  cta: string;
}

export const SPONSORS: Record<SponsorType, Sponsor> = {
  google: {
    label: "Sponsored",
    headline: "Advertise with local readers",
    text: "Reach San Diego County readers on the pages they visit every day (sample sponsor).",
    url: "https://ads.example.com/",
    cta: "Learn more",
  },
  buddhatv: {
    label: "Sponsored",
    headline: "Mindful minutes, streaming daily",
    text: "Short guided meditations from a local studio (sample sponsor).",
    url: "https://buddhatv.example.org/",
    cta: "Watch now",
  },
  dunamis: {
    label: "Sponsored",
    headline: "Community music nights",
    text: "Free concerts in neighbourhood parks all summer (sample sponsor).",
    url: "https://dunamis.example.org/",
    cta: "See the lineup",
  },
};
