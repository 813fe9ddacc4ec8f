import { data, Form, redirect } from "react-router";
import { readForm } from "../../server/forms/submission";
import { subscriberOfToken, unsubscribe } from "../../server/mail/subscriptions";
import { NewsletterBox } from "../components/NewsletterBox";
import { PageHeading } from "../components/PageHeading";
import { linkToken, mailLinkHeaders } from "../lib/mail-link";
import type { Route } from "./+types/newsletter-unsubscribe";

export const headers = mailLinkHeaders;

export const meta: Route.MetaFunction = () => [
  { title: "Unsubscribe | Newsletter" },
  { name: "robots", content: "noindex, nofollow" },
];

type State = "ask" | "unsubscribed" | "invalid";

/** Every mail's unsubscribe link opens this page; a GET never unsubscribes by itself. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("unsubscribed") === "1") {
    return { state: "unsubscribed" as State, token: "" };
  }
  const token = linkToken(request);
  const known = (await subscriberOfToken(context.db, token)) !== null;
  return { state: (known ? "ask" : "invalid") as State, token };
}

/**
 * The page's button. (A mail program's one-click POST to the List-Unsubscribe address is answered
 * before the pages: server/mail/one-click.ts.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { unsubscribed } = await unsubscribe(context.db, linkToken(request, form), new Date());
  if (!unsubscribed) return data({ state: "invalid" as State }, { status: 400 });
  return redirect("/newsletter/unsubscribe?unsubscribed=1", 303);
}

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  if (state === "unsubscribed") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeading lead="We will not send you the newsletter again.">
          You&apos;re unsubscribed
        </PageHeading>
        <p role="status" className="rounded bg-green-50 p-3 text-green-900 ring-1 ring-green-200">
          Your address is off the list. Changed your mind? Sign up again below.
        </p>
        <div className="mt-6">
          <NewsletterBox />
        </div>
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
      <PageHeading lead="Press the button and we will stop sending the daily newsletter to this address.">
        Unsubscribe from the newsletter
      </PageHeading>
      <Form method="post" action="/newsletter/unsubscribe">
        <input type="hidden" name="token" value={loaderData.token} />
        <button
          type="submit"
          className="w-full rounded bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark"
        >
          Unsubscribe
        </button>
      </Form>
    </div>
  );
}
