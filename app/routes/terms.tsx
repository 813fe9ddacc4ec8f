import { TERMS_SHORT } from "../../content/legal";
import { LegalPage } from "../components/LegalPage";
import { basicMeta } from "../lib/meta";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = () => basicMeta(TERMS_SHORT.title, TERMS_SHORT.description);

export default function Terms() {
  return (
    <LegalPage
      text={TERMS_SHORT}
      sibling={{ label: "Full Terms of Service", to: "/terms-of-service" }}
    />
  );
}
