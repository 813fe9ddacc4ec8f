import { PRIVACY_POLICY } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: PRIVACY_POLICY.title,
    description: PRIVACY_POLICY.description,
    noindex: true,
  });

export default function PrivacyPolicy() {
  return (
    <LegalPage
      text={PRIVACY_POLICY}
      sibling={{ label: "Terms of Service", to: "/terms-of-service" }}
    />
  );
}
