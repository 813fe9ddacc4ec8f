import { TERMS_OF_SERVICE } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = () => [
  ...basicMeta(TERMS_OF_SERVICE.title, TERMS_OF_SERVICE.description),
  { name: "robots", content: "noindex" },
];

export default function TermsOfService() {
  return (
    <LegalPage
      text={TERMS_OF_SERVICE}
      sibling={{ label: "Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
