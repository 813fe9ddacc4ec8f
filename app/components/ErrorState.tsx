import { useLocation, useRouteLoaderData } from "react-router";

interface Props {
  /** The spec's message; empty on the pages that show no error text. */
  message: string;
  heading?: string;
}

/** The spec's error state: the message and a Try Again button that reloads the page (a plain link). */
export function ErrorState({ message, heading }: Props) {
  const location = useLocation();
  const requestId = useRouteLoaderData<{ requestId?: string }>("root")?.requestId;
  return (
    <section className="py-12 text-center" role="alert">
      {heading ? <h1 className="mb-4 text-3xl font-bold">{heading}</h1> : null}
      {message ? <p className="text-lg text-red-800">{message}</p> : null}
      <a
        href={`${location.pathname}${location.search}`}
        className="mt-6 inline-block rounded bg-brand px-5 py-2 font-semibold text-white hover:bg-brand-dark"
      >
        Try Again
      </a>
      {requestId ? (
        <p className="mt-6 text-xs text-slate-600">
          If this keeps happening, tell us this reference: <code>{requestId}</code>
        </p>
      ) : null}
    </section>
  );
}
