import { describe, expect, it } from "vitest";
import { inboxAddress, inboxPageNumber } from "./newsroom";

describe("the inbox's pages", () => {
  it("reads a page number from a query or a form, the first page for anything else", () => {
    expect(inboxPageNumber("3")).toBe(3);
    expect(inboxPageNumber(null)).toBe(1);
    for (const bad of ["0", "-2", "1.5", "two", "", "1e400"]) expect(inboxPageNumber(bad)).toBe(1);
    expect(inboxPageNumber(new File(["2"], "page.txt"))).toBe(1);
  });

  it("names the first page without a query, and what was just done", () => {
    expect(inboxAddress(1)).toBe("/newsroom/inbox");
    expect(inboxAddress(2, "delete")).toBe("/newsroom/inbox?page=2&done=delete");
  });
});
