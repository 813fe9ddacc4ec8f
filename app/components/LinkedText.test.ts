import { describe, expect, it } from "vitest";
import { loadContent } from "../../server/content/load";
import routes from "../routes";
import { splitSitePaths } from "./LinkedText";

describe("splitSitePaths", () => {
  it.each([
    ["no paths here", [{ kind: "text", text: "no paths here" }]],
    [
      "Write to us (/contact-us).",
      [
        { kind: "text", text: "Write to us (" },
        { kind: "path", path: "/contact-us" },
        { kind: "text", text: ")." },
      ],
    ],
    [
      "/search finds it",
      [
        { kind: "path", path: "/search" },
        { kind: "text", text: " finds it" },
      ],
    ],
    [
      "at /privacy-policy and /terms-of-service",
      [
        { kind: "text", text: "at " },
        { kind: "path", path: "/privacy-policy" },
        { kind: "text", text: " and " },
        { kind: "path", path: "/terms-of-service" },
      ],
    ],
    ["open 24/7 and/or later", [{ kind: "text", text: "open 24/7 and/or later" }]],
    ["see https://example.com/a", [{ kind: "text", text: "see https://example.com/a" }]],
  ])("%s", (input, expected) => {
    expect(splitSitePaths(input)).toEqual(expected);
  });

  it("keeps every character of the FAQ answers and finds only pages we route", () => {
    const routed = new Set(routes.flatMap((r) => (r.path && r.path !== "*" ? [`/${r.path}`] : [])));
    for (const item of loadContent("content").faq.topics.flatMap((t) => t.items)) {
      const parts = splitSitePaths(item.answer);
      expect(parts.map((p) => (p.kind === "text" ? p.text : p.path)).join("")).toBe(item.answer);
      for (const p of parts) if (p.kind === "path") expect(routed).toContain(p.path);
    }
  });
});
