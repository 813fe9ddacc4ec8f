import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe (every rule) on the page as it is, or only on the elements `include` selects, and fails
 * on any serious or critical violation, listing each.
 */
export async function expectNoSeriousViolations(
  page: Page,
  label: string,
  include?: string,
): Promise<void> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  // Only the lists of passed and inapplicable nodes, unused here, are cut short.
  const results = await builder.options({ resultTypes: ["violations"] }).analyze();
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ""));
  const report = blocking
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .map(
            (n) =>
              `    ${n.target.join(" ")}\n      ${n.failureSummary?.replace(/\n/g, "\n      ")}`,
          )
          .join("\n"),
    )
    .join("\n");
  expect(
    blocking.map((v) => v.id),
    `${label}: serious or critical accessibility violations\n${report}`,
  ).toEqual([]);
}
