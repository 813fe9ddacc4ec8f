import { Link } from "react-router";

interface Props {
  /** Names the navigation landmark, e.g. "Archive pages". */
  label: string;
  page: number;
  pages: number;
  /** The address of page `n`. */
  href: (n: number) => string;
}

/** Previous / "Page n of m" / Next for a long list; nothing when it fits on one page. */
export function PageLinks({ label, page, pages, href }: Props) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-8 flex items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} className="text-brand underline">
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className="text-brand underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}
