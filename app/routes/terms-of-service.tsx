import { pageHead } from "../../server/seo/head";
import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import type { Route } from "./+types/terms-of-service";

// The text comes with the page's data, so it is not also shipped as JavaScript.
export function loader({ request, context }: Route.LoaderArgs) {
  const text = context.content.termsOfService;
  return {
    text,
    head: pageHead(request, context, {
      title: text.title,
      description: text.description,
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
