import type { Highlighted } from "../../shared/highlight";

/** Search matches marked with <mark>; every run is rendered as text. */
export function HighlightedText({ runs }: { runs: Highlighted }) {
  return (
    <>
      {runs.map((run, i) =>
        run.match ? (
          <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-inherit">
            {run.text}
          </mark>
        ) : (
          run.text
        ),
      )}
    </>
  );
}
