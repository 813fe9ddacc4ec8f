import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CalendarIcon, MenuIcon, SearchIcon } from "./Icons";

const LINE = 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"';

describe("Icons", () => {
  it("draw their shapes in lines of the current colour, hidden from assistive technology", () => {
    expect(renderToStaticMarkup(<SearchIcon />)).toBe(
      `<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" ${LINE}><circle cx="11" cy="11" r="7"></circle><path d="m20 20-3.5-3.5"></path></svg>`,
    );
    expect(renderToStaticMarkup(<MenuIcon />)).toBe(
      `<svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" ${LINE}><path d="M4 6h16M4 12h16M4 18h16"></path></svg>`,
    );
  });

  it("round their corners when asked", () => {
    expect(renderToStaticMarkup(<CalendarIcon />)).toContain(`${LINE} stroke-linejoin="round">`);
  });
});
