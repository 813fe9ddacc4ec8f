import { Link } from "react-router";

interface Props {
  /** Names the navigation landmark, e.g. "Archive pages". */
  label: string;
  page: number;
  pages: number;
  /** The address of page `n`. */
  href: (n: number) => string;
  /** The links' words and looks, when a list says them otherwise (the newsroom's). */
  previous?: string;
  next?: string;
  className?: string;
  linkClassName?: string;
}

/** Previous / "Page n of m" / Next for a long list; nothing when it fits on one page. */
export function PageLinks({
  label,
  page,
  pages,
  href,
  previous = "Previous",
  next = "Next",
  className = "mt-8 flex items-center justify-center gap-4",
  linkClassName = "text-brand underline",
}: Props) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className={className}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClassName}>
          {previous}
        </Link>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className={linkClassName}>
          {next}
        </Link>
      ) : null}
    </nav>
  );
}
