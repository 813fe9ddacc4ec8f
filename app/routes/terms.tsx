import { TERMS_SHORT } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: TERMS_SHORT.title, description: TERMS_SHORT.description });

export default function Terms() {
  return (
    <LegalPage
      text={TERMS_SHORT}
      sibling={{ label: "Full Terms of Service", to: "/terms-of-service" }}
    />
  );
}
