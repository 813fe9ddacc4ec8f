/** What the contact form offers and says. */

export const CONTACT_CATEGORIES = [
  { value: "general", label: "General question" },
  { value: "news-tip", label: "News tip" },
  { value: "correction", label: "Correction" },
  { value: "event", label: "Event or press release" },
  { value: "advertising", label: "Advertising" },
] as const;

export type ContactCategory = (typeof CONTACT_CATEGORIES)[number]["value"];

export const CONTACT_THANKS = {
  title: "Thank you, your message has reached our newsroom.",
  text: "We read every message. If it needs an answer, we will reply to the e-mail address you gave.",
};
