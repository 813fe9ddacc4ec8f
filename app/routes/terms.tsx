import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import { legalLoader } from "./legal.server";
import type { Route } from "./+types/terms";

export const loader = (args: Route.LoaderArgs) => legalLoader(args, "terms");
export const meta = headMeta;
export const handle = headHandle;

export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Full Terms of Service", to: "/terms-of-service" }}
    />
  );
}
