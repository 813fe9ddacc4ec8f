import { data, Form, redirect } from "react-router";
import { readForm } from "../../server/forms/submission";
import {
  resubscribe,
  subscriberStatusOfToken,
  unsubscribe,
} from "../../server/newsletter/subscriptions";
import { PageHeading } from "../components/PageHeading";
import { linkToken, mailLinkHeaders } from "../lib/mail-link";
import type { Route } from "./+types/newsletter-unsubscribe";

export const headers = mailLinkHeaders;

export const meta: Route.MetaFunction = () => [
  { title: "Unsubscribe | Newsletter" },
  { name: "robots", content: "noindex, nofollow" },
];

type State = "ask" | "unsubscribed" | "resubscribed" | "invalid";

/**
 * Every mail's unsubscribe link opens this page; a GET never changes anything by itself. A reader
 * who left comes back here too: their mail's token proves the mailbox, where the signup form sends
 * an address that left no confirmation (someone else may be typing it).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = linkToken(request);
  const status = await subscriberStatusOfToken(context.db, token);
  if (status === null) {
    // After the one-click POST of an earlier version, or a link cut short.
    const left = url.searchParams.get("unsubscribed") === "1" && !token;
    return { state: (left ? "unsubscribed" : "invalid") as State, token: "" };
  }
  if (status === "unsubscribed") return { state: "unsubscribed" as State, token };
  const back = url.searchParams.get("resubscribed") === "1";
  return { state: (back ? "resubscribed" : "ask") as State, token };
}

/**
 * The page's buttons: unsubscribe, or subscribe again. (A mail program's one-click POST to the
 * List-Unsubscribe address is answered before the pages: server/newsletter/one-click.ts.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = linkToken(request, form);
  const back = `/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
  if (form.get("intent") === "resubscribe") {
    const { resubscribed } = await resubscribe(context.db, token, new Date());
    if (!resubscribed) return data({ state: "invalid" as State }, { status: 400 });
    return redirect(`${back}&resubscribed=1`, 303);
  }
  const { unsubscribed } = await unsubscribe(context.db, token, new Date());
  if (!unsubscribed) return data({ state: "invalid" as State }, { status: 400 });
  return redirect(back, 303);
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  // The page's button: a post of the mail's token and what to do with it.
  const button = (intent: string, words: string, className?: string) => (
    <Form method="post" action="/newsletter/unsubscribe" className={className}>
      <input type="hidden" name="token" value={loaderData.token} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className="w-full rounded bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark"
      >
        {words}
      </button>
    </Form>
  );
  if (state === "unsubscribed") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading lead="We will not send you the newsletter again.">
          You&apos;re unsubscribed
        </PageHeading>
        <p role="status" className="rounded bg-green-50 p-3 text-green-900 ring-1 ring-green-200">
          Your address is off the list.
          {loaderData.token ? " Changed your mind? Subscribe again with the button below." : ""}
        </p>
        {loaderData.token ? button("resubscribe", "Subscribe again", "mt-6") : null}
      </div>
    );
  }
  if (state === "invalid") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading lead="This unsubscribe link is not one of ours, or it was cut short. Use the link in the newsletter itself.">
          This link does not work
        </PageHeading>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      {state === "resubscribed" ? (
        <p
          role="status"
          className="mb-6 rounded bg-green-50 p-3 text-green-900 ring-1 ring-green-200"
        >
          You&apos;re subscribed again: the next daily newsletter comes to this address.
        </p>
      ) : null}
      <PageHeading lead="Press the button and we will stop sending the daily newsletter to this address.">
        Unsubscribe from the newsletter
      </PageHeading>
      {button("unsubscribe", "Unsubscribe")}
    </div>
  );
}
