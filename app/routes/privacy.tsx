import { PRIVACY_SHORT } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: PRIVACY_SHORT.title, description: PRIVACY_SHORT.description });

export default function Privacy() {
  return (
    <LegalPage
      text={PRIVACY_SHORT}
      sibling={{ label: "Full Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
