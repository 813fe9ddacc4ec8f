/**
 * The Local News sidebar: outside reading about the region and an About San Diego note.
 * The links point at public pages the publication does not control; check them now and then.
 */

export interface OutsideLink {
  label: string;
  url: string;
  /** One line on what the reader will find there. */
  description: string;
}

export const LOCAL_NEWS_LINKS: readonly OutsideLink[] = [
  {
    label: "History of San Diego",
    url: "https://en.wikipedia.org/wiki/History_of_San_Diego",
    description: "From the Kumeyaay and the 1769 mission to the modern city (Wikipedia).",
  },
  {
    label: "Climate of San Diego",
    url: "https://en.wikipedia.org/wiki/Climate_of_San_Diego",
    description: "Mild winters, dry summers and the marine layer (Wikipedia).",
  },
  {
    label: "Economy of San Diego",
    url: "https://en.wikipedia.org/wiki/Economy_of_San_Diego",
    description: "Defense, trade, tourism and research in the regional economy (Wikipedia).",
  },
  {
    label: "Visit San Diego",
    url: "https://www.sandiego.org/",
    description: "Tourism: the San Diego Tourism Authority's visitor guide.",
  },
  {
    label: "Sports in San Diego",
    url: "https://en.wikipedia.org/wiki/Sports_in_San_Diego",
    description: "Teams, venues and sporting history of the city (Wikipedia).",
  },
  {
    label: "City of San Diego",
    url: "https://www.sandiego.gov/",
    description: "The city's official site: services, council meetings and news.",
  },
];

export const ABOUT_SAN_DIEGO: { title: string; paragraphs: readonly string[] } = {
  title: "About San Diego",
  paragraphs: [
    "San Diego is California's second-largest city and the seat of a county of more than three million people, reaching from the Pacific coast to the mountains and desert and south to the border with Mexico.",
    "The Kumeyaay lived here for thousands of years before Mission San Diego de Alcalá, the first of the California missions, was founded in 1769. Today the region's economy rests on the military, international trade, tourism, and research in the life sciences and technology.",
  ],
};
