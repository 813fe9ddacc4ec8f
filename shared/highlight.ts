/** Text in runs, the runs that matched a search marked: rendered as text, never as HTML. */
export type Highlighted = { text: string; match: boolean }[];

export function plainText(runs: Highlighted): string {
  return runs.map((run) => run.text).join("");
}
