import { TERMS_OF_SERVICE } from "../../content/legal";
import { pageHead } from "../../server/seo/head";
import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import type { Route } from "./+types/terms-of-service";

// The text comes with the page's data, so it is not also shipped as JavaScript.
export function loader({ request, context }: Route.LoaderArgs) {
  return {
    text: TERMS_OF_SERVICE,
    head: pageHead(request, context.config.siteUrl, {
      title: TERMS_OF_SERVICE.title,
      description: TERMS_OF_SERVICE.description,
      noindex: true,
    }),
  };
}

export const meta = headMeta;
export const handle = headHandle;

export default function TermsOfService({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
