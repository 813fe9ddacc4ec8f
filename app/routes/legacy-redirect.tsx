import { data, redirect } from "react-router";
import { legacyRedirect } from "../../shared/categories";
import type { Route } from "./+types/legacy-redirect";

/** Old addresses (e.g. /entertainment, linked by earlier chips) move permanently. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const target = legacyRedirect(url.pathname);
  if (!target) throw data("Not Found", { status: 404 });
  return redirect(`${target}${url.search}`, 301);
}
