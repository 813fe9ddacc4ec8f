/**
 * The About Us page's content: our story, mission, team, values, editorial team and careers note.
 * Team members are SAMPLE people for the demo; an operator replaces them with the newsroom's own.
 */

import { site } from "./site";

export interface TeamMember {
  name: string;
  role: string;
  bio: string;
  /** initials shown in the avatar circle */
  initials: string;
}

export interface Value {
  title: string;
  text: string;
}

export interface AboutContent {
  /** One sentence under the page heading. */
  lead: string;
  /** Paragraphs of "Our Story". */
  story: readonly string[];
  /** Short items of "Our Mission". */
  mission: readonly string[];
  /** Paragraphs of "Our Team". */
  team: readonly string[];
  /** "Our Values". */
  values: readonly Value[];
  /** Profile cards of the editorial team. */
  editorialTeam: readonly TeamMember[];
  /** The careers note; the page links it to the Contact Us page. */
  careers: string;
}

export const ABOUT: AboutContent = {
  lead: `${site.name} is an independent newsroom covering the people, places and decisions that shape San Diego County.`,
  story: [
    `${site.name} was founded in San Diego in ${site.foundingYear} by a small group of neighbors who wanted a news source that belonged to the county it covers. That year, when reliable local information mattered more than ever, it was hard to find in one place: council votes, school board decisions, public health updates and neighborhood events were scattered across dozens of sites, and some communities had little coverage at all.`,
    "We are independent. We are not owned by a national chain, a political group or any of the institutions we report on, and no advertiser or sponsor has a say in what we cover. We answer to our readers.",
    "We cover the whole county, from the border to the North County coast and from the beaches to the backcountry and the desert. Every day we gather headlines from trusted public news feeds, sort them by topic and community, and link back to the original reporting, so the journalists who did the work get the credit and the readers. Alongside them we publish our own blog posts, explainers and practical guides, community event listings, and resources such as listings of electric-vehicle charging stations.",
    "We would rather help you understand a story than simply tell you that it happened. That means explaining how decisions are made, where the money goes and what a change means for your street, your school and your commute. It also means listening: many of our most useful stories begin with a reader's question.",
  ],
  mission: [
    "Make it easy to keep up with news from every part of San Diego County in one place.",
    "Send readers to the original reporting and credit the journalists who did the work.",
    "Explain how local government, schools and public agencies make the decisions that affect you.",
    "Publish practical guides and listings that help people get things done.",
    "Make room for community events, organizations and voices that rarely reach the headlines.",
    "Keep our news free to read, with no account or sign-in required.",
  ],
  team: [
    "Our newsroom is small on purpose. Our editors choose which news feeds we follow, check the sources we rely on, and write and edit the blog posts, guides and listings we publish ourselves. We divide our coverage by community and by beat, so that every part of the county has someone paying attention to it.",
    "We also rely on our readers. Tips, corrections and event listings sent through our contact form shape what we cover, and every message is read by a person on our team.",
  ],
  values: [
    {
      title: "Accuracy",
      text: "We check facts before we publish, link to our sources, and correct mistakes promptly and openly.",
    },
    {
      title: "Independence",
      text: "Our editors alone decide what we cover. Advertisers, sponsors and officials do not get to review or change our work.",
    },
    {
      title: "Fairness",
      text: "We give the people we write about a chance to respond, and we try to represent every community in the county, not only the loudest.",
    },
    {
      title: "Community",
      text: "We are San Diegans writing for San Diegans, and we treat readers as partners who help us find and tell stories.",
    },
    {
      title: "Transparency",
      text: "We explain how we work, label sponsored content clearly and show readers where every headline comes from.",
    },
  ],
  editorialTeam: [
    {
      name: "Maria Delgado (sample)",
      role: "Editor-in-Chief",
      bio: "Sets our coverage priorities and edits our explainers on city and county government. A sample profile for the demo.",
      initials: "MD",
    },
    {
      name: "James Okafor (sample)",
      role: "Managing Editor",
      bio: "Runs the daily news report, chooses the feeds we follow and handles corrections. A sample profile for the demo.",
      initials: "JO",
    },
    {
      name: "Linh Tran (sample)",
      role: "Community Reporter",
      bio: "Covers neighborhoods, schools and local events, and looks after our community calendar. A sample profile for the demo.",
      initials: "LT",
    },
    {
      name: "Daniel Reyes (sample)",
      role: "Energy and Transportation Reporter",
      bio: "Writes about transit, housing and energy, and keeps our charging station listings up to date. A sample profile for the demo.",
      initials: "DR",
    },
  ],
  careers:
    "We occasionally look for reporters, editors and freelance contributors who know San Diego County and care about getting it right, and we welcome student journalists interested in internships. If that sounds like you, send us a short note with links to your work.",
};
