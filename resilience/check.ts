/** What every resilience check hands back to the runner. */
export interface CheckResult {
  id: string;
  title: string;
  /** Every requirement the check tests, each met or not. */
  verdicts: Verdict[];
  /** The key numbers, one line, for the summary table. */
  summary: string;
  /** The section of docs/RELIABILITY.md: Markdown, without its heading. */
  body: string;
}

export interface Verdict {
  pass: boolean;
  text: string;
}

export const passed = (result: CheckResult) =>
  result.verdicts.length > 0 && result.verdicts.every((verdict) => verdict.pass);

export const verdictList = (verdicts: Verdict[]) =>
  verdicts.map((v) => `- ${v.pass ? "PASS" : "FAIL"}: ${v.text}`).join("\n");

export const ms = (value: number) =>
  Number.isNaN(value) ? "n/a" : value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`;
