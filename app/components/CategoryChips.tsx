import { Link } from "react-router";
import { CATEGORY_CHIPS } from "../lib/nav";

export function CategoryChips() {
  return (
    <section aria-labelledby="chips-heading">
      <h2 id="chips-heading" className="text-lg font-bold">
        News Categories
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        {CATEGORY_CHIPS.map((chip) => (
          <li key={chip.to}>
            <Link
              to={chip.to}
              className="inline-block rounded-full bg-slate-200 px-3 py-1 text-sm hover:bg-slate-300"
            >
              {chip.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
