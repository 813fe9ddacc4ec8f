import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useFetcher, useLocation, useSearchParams } from "react-router";
import type { NewsletterAnswer } from "../../server/newsletter/signup-form";
import { CONFIRM_FROM_INBOX_TEXT, SUBSCRIBED_TITLE } from "../../shared/newsletter";
import { Honeypot, InlineAnswerField } from "./FormExtras";
import { Toast } from "./Toast";

interface Props {
  /** The answer to a signup posted without JavaScript, when this page is the one that took it. */
  posted?: NewsletterAnswer;
}

/**
 * The newsletter signup box. The address field is required and of type email, as the spec says.
 * Without JavaScript the form posts to /newsletter, which sends the reader back here with the
 * confirmation; with it the address is sent in place, a toast confirms and the field clears.
 */
export function NewsletterBox({ posted }: Props) {
  const fetcher = useFetcher<NewsletterAnswer>();
  const location = useLocation();
  const [params] = useSearchParams();
  const form = useRef<HTMLFormElement>(null);
  // The toast shows for an answer until that answer is dismissed (by its timer or the reader).
  const [dismissed, setDismissed] = useState<NewsletterAnswer | undefined>();
  const subscribed = fetcher.data?.status === "subscribed" ? fetcher.data : undefined;
  const closeToast = useCallback(() => setDismissed(subscribed), [subscribed]);
  const inputId = useId();
  const errorId = useId();

  useEffect(() => {
    if (subscribed) form.current?.reset();
  }, [subscribed]);

  const answer = fetcher.data ?? posted;
  const error = answer?.status === "error" ? answer.error : null;
  // Back from a signup without JavaScript: the confirmation stays in the box, saying what the
  // toast says (the address is pending until confirmed, so not "added" yet).
  const confirmedByRedirect = !fetcher.data && params.get("subscribed") === "1";
  const returnTo = `${location.pathname}${location.search}`;

  return (
    <section
      id="newsletter"
      aria-labelledby={`${inputId}-heading`}
      className="scroll-mt-4 rounded-lg bg-brand-dark p-5 text-white"
    >
      <h2 id={`${inputId}-heading`} className="text-lg font-bold">
        Newsletter
      </h2>
      <p className="mt-1 text-sm">The day&apos;s San Diego stories in your inbox every morning.</p>
      {confirmedByRedirect ? (
        <div role="status" className="mt-3 rounded bg-white/15 p-3 text-sm">
          <p className="font-bold">{SUBSCRIBED_TITLE}</p>
          <p>{CONFIRM_FROM_INBOX_TEXT}</p>
        </div>
      ) : null}
      <fetcher.Form
        ref={form}
        method="post"
        action="/newsletter"
        className="relative mt-3 flex flex-col gap-2"
      >
        <input type="hidden" name="returnTo" value={returnTo} />
        <InlineAnswerField />
        <Honeypot />
        <label htmlFor={inputId} className="text-sm">
          Email address
        </label>
        <input
          id={inputId}
          type="email"
          name="email"
          required
          maxLength={254}
          autoComplete="email"
          placeholder="you@example.com"
          defaultValue={posted?.status === "error" ? posted.email : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="rounded bg-white px-3 py-2 text-slate-900"
        />
        {error ? (
          <p id={errorId} role="alert" className="rounded bg-white px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={fetcher.state !== "idle"}
          className="rounded bg-white px-3 py-2 font-semibold text-brand-dark disabled:opacity-70"
        >
          Subscribe
        </button>
      </fetcher.Form>
      {subscribed && subscribed !== dismissed ? (
        // One message: the address is pending until confirmed, so not "added" yet.
        <Toast title={SUBSCRIBED_TITLE} text={CONFIRM_FROM_INBOX_TEXT} onClose={closeToast} />
      ) : null}
    </section>
  );
}
