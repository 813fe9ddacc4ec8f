import { PRIVACY_POLICY } from "../../content/legal";
import { pageHead } from "../../server/seo/head";
import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import type { Route } from "./+types/privacy-policy";

// The text comes with the page's data, so it is not also shipped as JavaScript.
export function loader({ request, context }: Route.LoaderArgs) {
  return {
    text: PRIVACY_POLICY,
    head: pageHead(request, context.config.siteUrl, {
      title: PRIVACY_POLICY.title,
      description: PRIVACY_POLICY.description,
      noindex: true,
    }),
  };
}

export const meta = headMeta;
export const handle = headHandle;

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Terms of Service", to: "/terms-of-service" }}
    />
  );
}
