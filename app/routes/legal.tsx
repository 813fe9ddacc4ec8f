import { pageHead } from "../../server/seo/head";
import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import type { Route } from "./+types/legal";

/**
 * The legal pages, each a route of this module (app/routes.ts) told apart by its path: the full
 * policy and terms, kept out of search results, and their summaries. Each one's first quick link
 * is its companion: the other long text, or a summary's full text.
 */
const PAGES = {
  "privacy-policy": {
    text: "privacyPolicy",
    noindex: true,
    sibling: { label: "Terms of Service", to: "/terms-of-service" },
  },
  "terms-of-service": {
    text: "termsOfService",
    noindex: true,
    sibling: { label: "Privacy Policy", to: "/privacy-policy" },
  },
  privacy: {
    text: "privacy",
    noindex: false,
    sibling: { label: "Full Privacy Policy", to: "/privacy-policy" },
  },
  terms: {
    text: "terms",
    noindex: false,
    sibling: { label: "Full Terms of Service", to: "/terms-of-service" },
  },
} as const;

const isLegalPath = (path: string): path is keyof typeof PAGES => Object.hasOwn(PAGES, path);

// The text comes with the page's data, so it is not also shipped as JavaScript.
export function loader({ request, context, pattern }: Route.LoaderArgs) {
  // The route's pattern: its path in app/routes.ts, with or without a leading slash.
  const path = pattern.replace(/^\//, "");
  if (!isLegalPath(path)) throw new Error(`No legal page at ${pattern}`);
  const { text: key, noindex, sibling } = PAGES[path];
  const text = context.content[key];
  return {
    text,
    sibling,
    head: pageHead(request, context, { title: text.title, description: text.description, noindex }),
  };
}

export const meta = headMeta;
export const handle = headHandle;

export default function Legal({ loaderData }: Route.ComponentProps) {
  return <LegalPage text={loaderData.text} sibling={loaderData.sibling} />;
}
