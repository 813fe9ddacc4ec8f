/**
 * Static content of the Partners page: illustrations, the points we look for in a partner and the
 * intro copy. SAMPLE copy and images for the demo; an operator replaces them with the
 * publication's own.
 */

export interface PartnerImage {
  id: number;
  /** Path under /public. */
  url: string;
  alt: string;
}

export const PARTNER_IMAGES: readonly PartnerImage[] = [
  {
    id: 1,
    url: "/images/partners/partner-1.svg",
    alt: "Two abstract hands, one teal and one orange, meeting in a handshake over a sunny background",
  },
  {
    id: 2,
    url: "/images/partners/partner-2.svg",
    alt: "A red map pin standing over a simple map of neighborhood blocks, a park and the coastline",
  },
  {
    id: 3,
    url: "/images/partners/partner-3.svg",
    alt: "A stack of folded newspapers beside a coffee mug on a blue table",
  },
];

export interface PartnerPoint {
  title: string;
  text: string;
}

export const PARTNER_POINTS: readonly PartnerPoint[] = [
  {
    title: "Community Focus",
    text: "We work with organizations that serve San Diego County residents. Partnerships should help readers find local information, services and events.",
  },
  {
    title: "Quality Standards",
    text: "Partner content is clearly labeled and meets the same accuracy standards as our own reporting. Partners never influence what our newsroom covers.",
  },
  {
    title: "Innovation",
    text: "We welcome new ideas for reaching readers, from events and newsletters to data projects that make local information easier to use.",
  },
];

export const PARTNERS_INTRO: string =
  "We team up with local organizations, businesses and fellow publications that share our commitment " +
  "to independent, community-minded journalism. Here is what we look for in a partner (sample copy).";
