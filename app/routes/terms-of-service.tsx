import { TERMS_OF_SERVICE } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: TERMS_OF_SERVICE.title,
    description: TERMS_OF_SERVICE.description,
    noindex: true,
  });

export default function TermsOfService() {
  return (
    <LegalPage
      text={TERMS_OF_SERVICE}
      sibling={{ label: "Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
