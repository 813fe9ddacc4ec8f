import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import { legalLoader } from "./legal.server";
import type { Route } from "./+types/privacy-policy";

export const loader = (args: Route.LoaderArgs) =>
  legalLoader(args, "privacyPolicy", { noindex: true });
export const meta = headMeta;
export const handle = headHandle;

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Terms of Service", to: "/terms-of-service" }}
    />
  );
}
