import { useEffect, useId, useRef } from "react";
import { useActionData, useFetcher, useLocation } from "react-router";
import type { Poll as PollContent } from "../../server/content/load";
import type { PollView } from "../../server/forms/poll";
import { FORM_TOKEN_FIELD } from "../../shared/form-fields";
import { Honeypot, InlineAnswerField } from "./FormExtras";

interface Props {
  /** The question and its options (content/community.yaml). */
  poll: PollContent;
  /** The poll as the loader saw it for this reader. */
  initial: PollView;
  /** The page's signed form token: a vote with it is counted within the larger daily ceiling. */
  formToken: string;
}

/**
 * The reader poll. A plain POST form: without JavaScript the vote is a POST answered with a redirect
 * back to the poll's results (or, when refused, the page with the reason); with it a fetcher sends
 * the vote and only this box changes.
 */
export function Poll({ poll, initial, formToken }: Props) {
  const fetcher = useFetcher<PollView>();
  const posted = useActionData<PollView>();
  const location = useLocation();
  const view = fetcher.data ?? posted ?? initial;
  const headingId = useId();
  const errorId = useId();

  // The Vote button disappears with the answer; focus moves to what replaced it.
  const answer = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (fetcher.data) answer.current?.focus();
  }, [fetcher.data]);

  return (
    <section
      id="poll"
      aria-labelledby={headingId}
      className="scroll-mt-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id={headingId} className="text-xl font-bold">
        Community Poll
      </h2>
      {view.status === "results" ? (
        <div className="mt-3">
          <p className="font-semibold">{poll.question}</p>
          <p
            ref={answer}
            tabIndex={-1}
            role="status"
            className="mt-2 rounded bg-sky-50 px-3 py-2 text-sm text-sky-950 outline-none"
          >
            {view.message}
          </p>
          <ul className="mt-4 space-y-3" aria-label="Poll results">
            {view.results.tallies.map((t) => (
              <li key={t.option}>
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span>{t.option}</span>
                  <span className="shrink-0 font-semibold tabular-nums">
                    {t.percent}% ({t.votes} {t.votes === 1 ? "vote" : "votes"})
                  </span>
                </div>
                <div aria-hidden="true" className="mt-1 h-2 overflow-hidden rounded bg-slate-200">
                  <div className="h-full bg-brand" style={{ width: `${t.percent}%` }} />
                </div>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm text-slate-700">
            Total votes: <span className="tabular-nums">{view.results.total}</span>
          </p>
        </div>
      ) : (
        // The hash brings a reader without JavaScript back to the poll when the page reloads.
        <fetcher.Form method="post" action={`${location.pathname}#poll`} className="relative mt-3">
          <InlineAnswerField />
          <Honeypot />
          <input type="hidden" name={FORM_TOKEN_FIELD} value={formToken} />
          <fieldset aria-describedby={view.error ? errorId : undefined}>
            <legend className="font-semibold">{poll.question}</legend>
            <div className="mt-3 space-y-2">
              {poll.options.map((option) => (
                <label key={option} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="option"
                    value={option}
                    required
                    className="h-4 w-4 accent-brand"
                  />
                  {option}
                </label>
              ))}
            </div>
          </fieldset>
          {view.error ? (
            <p id={errorId} role="alert" className="mt-3 text-sm text-red-800">
              {view.error}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={fetcher.state !== "idle"}
            className="mt-4 rounded bg-brand px-5 py-2 font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
          >
            Vote
          </button>
        </fetcher.Form>
      )}
    </section>
  );
}
