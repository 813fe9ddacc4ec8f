import { Link } from "react-router";

interface Props {
  page: number;
  pages: number;
}

/** The blog list's address for a page; page 1 is /blog itself. */
function blogPageHref(page: number): string {
  return page === 1 ? "/blog" : `/blog?page=${page}`;
}

const ITEM = "inline-flex min-h-11 min-w-11 items-center justify-center rounded px-3 font-semibold";
const LINK = `${ITEM} bg-white text-brand ring-1 ring-slate-300 hover:bg-slate-100`;
const DISABLED = `${ITEM} cursor-not-allowed bg-slate-100 text-slate-600`;
const CURRENT = `${ITEM} bg-brand text-white ring-1 ring-brand`;

/**
 * Previous, numbered pages and Next, as plain links so paging works without JavaScript. Previous
 * and Next are inert text (aria-disabled) at the ends; nothing shows for a single page.
 */
export function BlogPagination({ page, pages }: Props) {
  if (pages <= 1) return null;
  const numbers = Array.from({ length: pages }, (_, i) => i + 1);
  return (
    <nav aria-label="Blog pages" className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          {page > 1 ? (
            <Link to={blogPageHref(page - 1)} rel="prev" className={LINK}>
              Previous
            </Link>
          ) : (
            <span aria-disabled="true" className={DISABLED}>
              Previous
            </span>
          )}
        </li>
        {numbers.map((n) => (
          <li key={n}>
            <Link
              to={blogPageHref(n)}
              aria-label={`Page ${n}`}
              aria-current={n === page ? "page" : undefined}
              className={n === page ? CURRENT : LINK}
            >
              {n}
            </Link>
          </li>
        ))}
        <li>
          {page < pages ? (
            <Link to={blogPageHref(page + 1)} rel="next" className={LINK}>
              Next
            </Link>
          ) : (
            <span aria-disabled="true" className={DISABLED}>
              Next
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
