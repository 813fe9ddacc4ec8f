import { Link, useRouteLoaderData } from "react-router";

/**
 * The staff area's header: which site, that this is its newsroom, and the way back to the site.
 * Drawn by the newsroom's own pages (not the root layout), so readers' pages never load it.
 */
export function NewsroomHeader() {
  const siteName =
    useRouteLoaderData<{ site?: { name: string } }>("root")?.site?.name ?? "The site";
  return (
    <div className="-mx-4 -mt-6 mb-6 bg-slate-900 text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-3">
        <p className="text-lg font-bold">
          <Link to="/newsroom" reloadDocument>
            {siteName}: Newsroom
          </Link>
        </p>
        <Link to="/" className="text-sm underline underline-offset-2">
          Back to the site
        </Link>
      </div>
    </div>
  );
}
