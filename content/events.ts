/**
 * Static content of the Events and Local Events pages: featured listings, browse categories and
 * the submit/newsletter blurbs. The featured events are SAMPLE listings for the demo; an operator
 * replaces them with real ones.
 */

export interface FeaturedEvent {
  title: string;
  /** Start, ISO 8601 with San Diego's offset (-08:00 in winter, -07:00 in summer). */
  date: string;
  /** Shown as given, e.g. "10 a.m. – 2 p.m.". */
  time: string;
  place: string;
  description: string;
}

export interface EventCategory {
  title: string;
  description: string;
}

export const FEATURED_EVENTS: readonly FeaturedEvent[] = [
  {
    title: "Winter Lights Walk (sample)",
    date: "2026-12-18T17:30:00-08:00",
    time: "5:30 – 9 p.m.",
    place: "Balboa Park, El Prado",
    description: "An evening stroll past lighted gardens, with live carolers and food trucks.",
  },
  {
    title: "New Year's Day Bay Run (sample)",
    date: "2027-01-01T08:00:00-08:00",
    time: "8 – 11 a.m.",
    place: "Shelter Island",
    description: "A relaxed 5K along the bay for runners and walkers of every pace.",
  },
  {
    title: "Lunar New Year Family Festival (sample)",
    date: "2027-02-13T11:00:00-08:00",
    time: "11 a.m. – 5 p.m.",
    place: "Convoy District",
    description: "Lion dances, crafts for kids and food from neighborhood restaurants.",
  },
  {
    title: "Spring Makers Market (sample)",
    date: "2027-04-10T10:00:00-07:00",
    time: "10 a.m. – 3 p.m.",
    place: "Liberty Station, Point Loma",
    description: "Local artists, bakers and makers sell handmade goods; live acoustic music.",
  },
];

/** Browse categories shown on /events. */
export const EVENT_CATEGORIES: readonly EventCategory[] = [
  {
    title: "Festivals & Fairs",
    description: "Street fairs, cultural celebrations and seasonal festivals across the county.",
  },
  {
    title: "Arts & Music",
    description: "Concerts, gallery openings, theater and live performances, big and small.",
  },
  {
    title: "Family & Kids",
    description: "Story times, hands-on workshops and outings the whole family can enjoy.",
  },
  {
    title: "Sports & Outdoors",
    description: "Games, races, group hikes and beach days from the coast to the mountains.",
  },
  {
    title: "Food & Drink",
    description: "Farmers markets, food festivals, tastings and pop-ups from local makers.",
  },
  {
    title: "Community & Civic",
    description: "Public meetings, volunteer days, town halls and neighborhood gatherings.",
  },
];

/** Browse categories shown on /local-events. */
export const LOCAL_EVENT_CATEGORIES: readonly EventCategory[] = [
  {
    title: "Neighborhood Gatherings",
    description: "Block parties, cleanups and meetups organized by your neighbors.",
  },
  {
    title: "Markets & Pop-ups",
    description: "Weekly farmers markets, craft fairs and small-business pop-ups near you.",
  },
  {
    title: "Library & Learning",
    description: "Free classes, talks and workshops at libraries and community centers.",
  },
  {
    title: "Parks & Recreation",
    description: "Outdoor activities, guided walks and recreation center programs.",
  },
  {
    title: "Meetings & Town Halls",
    description: "Planning groups, council sessions and forums where residents can speak up.",
  },
];

export const SUBMIT_EVENT_BLURB: string =
  "Hosting something in San Diego County? Send us the event's name, date, time, location and a " +
  "short description through our Contact Us page, and our editors will review it for the listings.";

export const EVENTS_NEWSLETTER_BLURB: string =
  "Want the week's best local events in your inbox? Sign up for our newsletter and get them every week.";
