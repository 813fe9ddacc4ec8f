import { data } from "react-router";
import { NOT_FOUND_SEO } from "../components/NotFound";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/not-found";

export function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  // /not-found itself is where unknown articles are sent; only unknown addresses are worth a warning.
  if (path !== "/not-found") context.logger.warn({ path }, "404: no route matches the path");
  return data({ path }, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, NOT_FOUND_SEO);

export { NotFound as default } from "../components/NotFound";
