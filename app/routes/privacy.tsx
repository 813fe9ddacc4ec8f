import { LegalPage } from "../components/LegalPage";
import { headHandle, headMeta } from "../../shared/head";
import { legalLoader } from "./legal.server";
import type { Route } from "./+types/privacy";

export const loader = (args: Route.LoaderArgs) => legalLoader(args, "privacy");
export const meta = headMeta;
export const handle = headHandle;

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      text={loaderData.text}
      sibling={{ label: "Full Privacy Policy", to: "/privacy-policy" }}
    />
  );
}
