import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import { legalLoader } from "./legal.server";
import type { Route } from "./+types/terms-of-service";

export const loader = (args: Route.LoaderArgs) =>
  legalLoader(args, "termsOfService", { noindex: true });
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
