import { Link, NavLink } from "react-router";
import { HEADER_LINKS } from "../lib/nav";
import { SearchIcon } from "./Icons";
import { MobileMenu } from "./MobileMenu";
import { SearchForm } from "./SearchForm";

const SEARCH_ID = "header-search";

export function Header({ siteName }: { siteName: string }) {
  return (
    <header className="bg-brand-dark text-white">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="min-w-0 truncate text-lg font-bold tracking-tight sm:text-2xl">
          {siteName}
        </Link>
        <div className="flex shrink-0 items-center gap-1">
          <button
            type="button"
            popoverTarget={SEARCH_ID}
            aria-controls={SEARCH_ID}
            aria-label="Search"
            className="hidden rounded p-2 hover:bg-white/10 md:block"
          >
            <SearchIcon />
          </button>
          <MobileMenu />
        </div>
      </div>
      <nav aria-label="Main" className="hidden border-t border-white/15 md:block">
        <ul className="mx-auto flex max-w-7xl items-center gap-1 px-2 text-sm lg:gap-2 lg:text-base">
          {HEADER_LINKS.map((link) => (
            <li key={link.to} className={link.extraWide ? "hidden xl:block" : undefined}>
              <NavLink
                to={link.to}
                className="block px-2 py-2 whitespace-nowrap hover:bg-white/10 aria-[current=page]:underline aria-[current=page]:underline-offset-4"
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div
        id={SEARCH_ID}
        popover="auto"
        className="header-search bg-white p-4 shadow-xl"
        // Opening the box puts the reader in it, ready to type. (An `autofocus` attribute would do
        // it without script, but no page may carry one: feed HTML is checked for it.)
        onToggle={(event) => {
          if (event.newState === "open") event.currentTarget.querySelector("input")?.focus();
        }}
      >
        <div className="mx-auto max-w-xl">
          <SearchForm id="header-search-input" placeholder="Search news" />
        </div>
      </div>
    </header>
  );
}
