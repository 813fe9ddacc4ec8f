import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import type { PageSeo } from "../../shared/seo";
import { PageAds } from "./PageAds";

/** The head of the 404 screen. */
export const NOT_FOUND_SEO: PageSeo = {
  title: "Page not found",
  description: "The page you were looking for does not exist.",
  noindex: true,
};

/** The site's 404 screen: unknown addresses, and unknown categories of the category route. */
export function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.warn(`404 Error: User attempted to access non-existent route: ${pathname}`);
  }, [pathname]);
  return (
    <>
      <section className="py-16 text-center">
        <h1 className="text-6xl font-bold">404</h1>
        <p className="mt-4 text-xl">Oops! Page not found</p>
        <Link to="/" className="mt-6 inline-block text-brand underline">
          Return to Home
        </Link>
      </section>
      <PageAds kind="page" at="end" />
    </>
  );
}
