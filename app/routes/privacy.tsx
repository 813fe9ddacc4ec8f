import { pageHead } from "../../server/seo/head";
import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import type { Route } from "./+types/privacy";

// The text comes with the page's data, so it is not also shipped as JavaScript.
export function loader({ request, context }: Route.LoaderArgs) {
  const text = context.content.privacy;
  return {
    text,
    head: pageHead(request, context, {
      title: text.title,
      description: text.description,
    }),
  };
}

export const meta = headMeta;
export const handle = headHandle;

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Full Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
