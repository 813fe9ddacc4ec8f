import { useEffect } from "react";
import { data, Link, useLocation } from "react-router";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/not-found";

export function loader({ request, context }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  // /not-found itself is where unknown articles are sent; only unknown addresses are worth a warning.
  if (path !== "/not-found") context.logger.warn({ path }, "404: no route matches the path");
  return data({ path }, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Page not found",
    description: "The page you were looking for does not exist.",
    noindex: true,
  });

export default function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.warn(`404 Error: User attempted to access non-existent route: ${pathname}`);
  }, [pathname]);
  return (
    <section className="py-16 text-center">
      <h1 className="text-6xl font-bold">404</h1>
      <p className="mt-4 text-xl">Oops! Page not found</p>
      <Link to="/" className="mt-6 inline-block text-brand underline">
        Return to Home
      </Link>
    </section>
  );
}
