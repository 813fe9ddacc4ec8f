import { Link } from "react-router";

/** The staff area's header: which site, that this is its newsroom, and the way back to the site. */
export function NewsroomHeader({ siteName }: { siteName: string }) {
  return (
    <header className="bg-slate-900 text-white">
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
    </header>
  );
}
