import { PRIVACY_POLICY } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = () => [
  ...basicMeta(PRIVACY_POLICY.title, PRIVACY_POLICY.description),
  { name: "robots", content: "noindex" },
];

export default function PrivacyPolicy() {
  return (
    <LegalPage
      text={PRIVACY_POLICY}
      sibling={{ label: "Terms of Service", to: "/terms-of-service" }}
    />
  );
}
