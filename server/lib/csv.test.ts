import { describe, expect, it } from "vitest";
import { csvFile } from "./csv";

describe("csvFile", () => {
  it.each([
    ["reader@example.org", '"reader@example.org"'],
    ["", '""'],
    ['say "hi", then', '"say ""hi"", then"'],
    ["two\r\nlines\nand one", '"two\r\nlines\nand one"'],
    ["a=b", '"a=b"'],
    // Formulas (OWASP CSV injection): read as text, with a ' in front.
    ["=SUM(A1:A9)", `"'=SUM(A1:A9)"`],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
    ["+1-555@example.org", `"'+1-555@example.org"`],
    ["-2+3@example.org", `"'-2+3@example.org"`],
    ["@SUM(1)", `"'@SUM(1)"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ["\uFF1D1+1", `"'\uFF1D1+1"`],
  ])("writes %j as %s", (cell, written) => {
    expect(csvFile([[cell]])).toBe(`${written}\r\n`);
  });

  it("separates cells with commas and ends every row with CRLF", () => {
    expect(
      csvFile([
        ["email", "status"],
        ["a@example.org", "confirmed"],
      ]),
    ).toBe('"email","status"\r\n"a@example.org","confirmed"\r\n');
    expect(csvFile([])).toBe("");
  });
});
