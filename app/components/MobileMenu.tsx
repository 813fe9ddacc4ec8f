import { useState } from "react";
import { NavLink } from "react-router";
import { MOBILE_MENU_LINKS } from "../lib/nav";
import { useHydrated } from "../lib/use-hydrated";
import { MenuIcon } from "./Icons";
import { SearchForm } from "./SearchForm";

const MENU_ID = "mobile-menu";

/**
 * The menu of small screens. It is a native popover, so the button opens it and Escape or a tap
 * outside closes it without JavaScript; with JavaScript it also closes when a link is chosen, and
 * the button reports its state through aria-expanded.
 */
export function MobileMenu() {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const closeMenu = () => document.getElementById(MENU_ID)?.hidePopover();

  return (
    <div className="md:hidden">
      <button
        type="button"
        popoverTarget={MENU_ID}
        aria-controls={MENU_ID}
        // Before hydration the browser derives the expanded state from the popover itself.
        aria-expanded={hydrated ? open : undefined}
        className="flex items-center gap-2 rounded px-2 py-2 text-white hover:bg-white/10"
      >
        <MenuIcon />
        {/* Icon alone on the narrowest phones, so the site name beside it shows whole. */}
        <span className="max-[374px]:sr-only">Menu</span>
      </button>
      <nav
        id={MENU_ID}
        popover="auto"
        aria-label="Site menu"
        onToggle={(event) => setOpen((event.nativeEvent as ToggleEvent).newState === "open")}
        className="mobile-menu w-full bg-white p-4 text-slate-900 shadow-xl"
      >
        <ul className="grid grid-cols-2 gap-x-4 gap-y-1">
          {MOBILE_MENU_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end
                onClick={closeMenu}
                className="block rounded px-2 py-2 hover:bg-slate-100 aria-[current=page]:font-bold aria-[current=page]:text-brand"
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="mt-4 border-t border-slate-200 pt-4">
          <SearchForm id="mobile-search" />
        </div>
      </nav>
    </div>
  );
}
