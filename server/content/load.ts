import path from "node:path";
import { z } from "zod";
import {
  ContentError,
  readFrontMatter,
  readSections,
  readYaml,
  validate,
  type Section,
} from "./read";
import { orExit } from "../exit";
import { AD_SLOT_NAMES, type AdSlotName } from "../../shared/ads";

/**
 * The editorial content in CONTENT_DIR (content/ by default): site settings and lists in YAML,
 * prose in Markdown with front matter. Read and checked once at start; a bad file stops the
 * process with one line naming the file and the field.
 */

const text = z.string().min(1, "must not be empty");
const webUrl = z.url({ protocol: /^https?$/, error: "expected an http(s) URL" });
const dateTime = z.iso.datetime({
  offset: true,
  error: "expected an ISO 8601 date and time with its offset, e.g. 2026-12-18T17:30:00-08:00",
});
const card = z.strictObject({ title: text, text });
const outsideLink = z.strictObject({ label: text, url: webUrl, description: text });
const eventCategory = z.strictObject({ title: text, description: text });
const listedEvent = z.strictObject({
  title: text,
  date: dateTime,
  time: text,
  place: text,
  description: text,
});
const sponsor = z.strictObject({ label: text, headline: text, text, url: webUrl, cta: text });

const site = z.strictObject({
  name: text,
  tagline: text,
  foundingYear: z.number().int(),
  contact: z.strictObject({
    phone: text,
    email: z.email({ error: "expected an e-mail address" }),
    address: z.strictObject({
      street: text,
      locality: text,
      region: text,
      postalCode: text,
      country: text,
    }),
  }),
  social: z.array(z.strictObject({ label: text, url: webUrl })),
  partnerSites: z.array(z.strictObject({ name: text, url: webUrl })),
  breaking: z.string(),
});

const faq = z.strictObject({
  topics: z.array(
    z.strictObject({
      id: z.string().regex(/^[a-z0-9-]+$/, "expected lower-case letters, digits and hyphens"),
      title: text,
      items: z.array(z.strictObject({ question: text, answer: text })),
    }),
  ),
});

const events = z.strictObject({
  featured: z.array(listedEvent),
  categories: z.array(eventCategory),
  localCategories: z.array(eventCategory),
  submitBlurb: text,
  newsletterBlurb: text,
});

const partners = z.strictObject({
  intro: text,
  images: z.array(
    z.strictObject({
      id: z.number().int(),
      url: z.string().startsWith("/", "expected a path under public/, starting with /"),
      alt: text,
    }),
  ),
  points: z.array(card),
});

const community = z.strictObject({
  events: z.array(listedEvent),
  resources: z.array(outsideLink),
  poll: z.strictObject({ id: text, question: text, options: z.array(text).min(2) }),
});

const business = z.strictObject({
  spotlight: z.strictObject({ name: text, neighborhood: text, text }),
  indicators: z.strictObject({
    note: text,
    asOf: dateTime,
    figures: z.array(z.strictObject({ label: text, value: text, change: text })),
  }),
  events: z.array(z.strictObject({ title: text, date: dateTime, place: text })),
  directory: z.array(outsideLink),
});

const localNews = z.strictObject({
  links: z.array(outsideLink),
  aboutSanDiego: z.strictObject({ title: text, paragraphs: z.array(text) }),
});

const contact = z.strictObject({
  categories: z.array(z.strictObject({ value: text, label: text })).min(1),
  thanks: z.strictObject({ title: text, text }),
});

const sponsors = z.strictObject({ google: sponsor, buddhatv: sponsor, dunamis: sponsor });

const houseAd = z.strictObject({
  headline: text,
  text,
  cta: text,
  href: z.string().regex(/^\/(?!\/)/, "expected a path of this site, starting with one /"),
});
const houseAdSlots = Object.fromEntries(AD_SLOT_NAMES.map((slot) => [slot, houseAd])) as Record<
  AdSlotName,
  typeof houseAd
>;
const houseAds = z.strictObject({ from: text, ...houseAdSlots });

const about = z.strictObject({
  description: text,
  lead: text,
  values: z.array(card),
  editorialTeam: z.array(z.strictObject({ name: text, role: text, bio: text, initials: text })),
  careers: text,
});

const legal = z.strictObject({ title: text, description: text, lastUpdated: text.optional() });

export type SiteSettings = z.output<typeof site>;
export type FaqTopic = z.output<typeof faq>["topics"][number];
export type FaqItem = FaqTopic["items"][number];
export type ListedEvent = z.output<typeof listedEvent>;
export type EventCategory = z.output<typeof eventCategory>;
export type OutsideLink = z.output<typeof outsideLink>;
export type Poll = z.output<typeof community>["poll"];
export type ContactCategory = z.output<typeof contact>["categories"][number];
export type HouseAds = z.output<typeof houseAds>;
export type HouseAd = z.output<typeof houseAd>;
export type TeamMember = z.output<typeof about>["editorialTeam"][number];
export type LegalText = z.output<typeof legal> & { intro: string[]; sections: Section[] };
export type { Section };

function readAbout(file: string) {
  const { data, body } = readFrontMatter(file);
  const { intro, sections } = readSections(file, body);
  if (intro.length > 0) throw new ContentError(file, 'body: must start with a "## " heading');
  return { ...validate(about, file, data), sections };
}

function readLegal(file: string): LegalText {
  const { data, body } = readFrontMatter(file);
  return { ...validate(legal, file, data), ...readSections(file, body) };
}

export function loadContent(dir: string) {
  const file = (name: string) => path.join(dir, name);
  const yaml = <T extends z.ZodType>(name: string, schema: T) =>
    validate(schema, file(name), readYaml(file(name)));
  return {
    site: yaml("site.yaml", site),
    faq: yaml("faq.yaml", faq),
    events: yaml("events.yaml", events),
    partners: yaml("partners.yaml", partners),
    community: yaml("community.yaml", community),
    business: yaml("business.yaml", business),
    localNews: yaml("local-news.yaml", localNews),
    contact: yaml("contact.yaml", contact),
    sponsors: yaml("sponsors.yaml", sponsors),
    houseAds: yaml("house-ads.yaml", houseAds),
    about: readAbout(file("about.md")),
    privacyPolicy: readLegal(file("privacy-policy.md")),
    termsOfService: readLegal(file("terms-of-service.md")),
    privacy: readLegal(file("privacy.md")),
    terms: readLegal(file("terms.md")),
  };
}

export type Content = ReturnType<typeof loadContent>;

/** The content, or the end of the process with exit code 1 and one line naming the bad file. */
export function loadContentOrExit(dir: string): Content {
  return orExit(() => loadContent(dir), ContentError);
}
